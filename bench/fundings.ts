/**
 * Payouts at scale (`npm run bench -- fundings`): 100 funding files of 10,000 lines (a million
 * lines) imported through the real path: the sandbox process lists and streams generated files over
 * HTTP, the client reads each with csv-parse as it arrives, and the payouts module's SQL stores it
 * in Postgres (embedded) in one transaction per file. Then 100,000 captures and refunds are recorded
 * and matched, and the admin's paged reads are timed at that size. Memory is this process's, sampled:
 * a few 1,000-line files are imported first, so the peak heap of both sizes can be compared.
 * Sizes: BENCH_FUNDINGS_FILES, BENCH_FUNDINGS_LINES, BENCH_FUNDINGS_SMALL_FILES, BENCH_FUNDINGS_MOVEMENTS.
 */
import { createAltaPayClient, type AltaPayClient, type Funding } from "../src/altapay"
import { listPayoutExceptions } from "../src/modules/altapay-payouts/sql/exceptions"
import { listPayoutFileLines, listPayoutFiles } from "../src/modules/altapay-payouts/sql/files"
import { importFundingFile, storedFundingFile } from "../src/modules/altapay-payouts/sql/import"
import { matchLines } from "../src/modules/altapay-payouts/sql/match"
import { recordMovements } from "../src/modules/altapay-payouts/sql/movements"
import { payoutsForPayments } from "../src/modules/altapay-payouts/sql/payment-payouts"
import type { MatchResult, MoneyMovementInput } from "../src/modules/altapay-payouts/types"
import { generatedLine, type GeneratedFundingFileInput, type GeneratedFundingSpec } from "../src/sandbox"
import { heapAfterGc } from "./memory"
import { MemoryPeak, sampled, type Peak } from "./lib/memory-peak"
import { startPayoutsDb, type PayoutsDb } from "./lib/payouts-db"
import type { Row } from "./lib/report"
import { PASSWORD, USER, type RemoteSandbox } from "./lib/sandbox-process"
import { median, nowNs, nsToMs } from "./lib/timing"

const MB = 1024 * 1024
const DAY_MS = 24 * 60 * 60 * 1000
const PROVIDER_ID = "pp_altapay_altapay"
const CAPTURE_ID = "capt_bench_"
const REFUND_ID = "ref_bench_"
const SPEC = { currency: "EUR", paymentPrefix: `medusa-capture-${CAPTURE_ID}`, refundPrefix: `medusa-refund-${REFUND_ID}` } as const

const size = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number from 1`)
  return value
}

interface Phase {
  files: number
  lines: number
  fileMs: number[]
  totalMs: number
  heapBefore: number
  heapAfter: number
  peak: Peak
}

const mb = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`
const int = (n: number): string => Math.round(n).toLocaleString("en")
const row = (figure: string, measured: string): Row => ({ figure, measured, target: "report", status: "info" })

/** The files as the sandbox process serves them: generated lines, funding dates one day apart. */
function fileInputs(count: number, lines: number, firstIndex: number, label: string, firstDay: number): GeneratedFundingFileInput[] {
  return Array.from({ length: count }, (_, k) => {
    const fundingDate = new Date(firstDay + k * DAY_MS).toISOString().slice(0, 10)
    const date = new Date(firstDay + (k - 1) * DAY_MS).toISOString().slice(0, 10)
    return { ...SPEC, lines, firstIndex: firstIndex + k * lines, date, fundingDate, filename: `Bench_${label}_${String(k + 1).padStart(4, "0")}_EUR` }
  })
}

async function listAll(client: AltaPayClient): Promise<Funding[]> {
  const first = await client.fundings.fundingList({ page: 0 })
  const out = [...first.fundings]
  for (let page = 1; page < first.numberOfPages; page++) out.push(...(await client.fundings.fundingList({ page })).fundings)
  return out
}

async function importFiles(db: PayoutsDb, client: AltaPayClient, account: string, fundings: Funding[], expectedLines: number, log: (m: string) => void): Promise<Phase> {
  const peak = new MemoryPeak()
  const heapBefore = heapAfterGc()
  const fileMs: number[] = []
  peak.start()
  const t0 = nowNs()
  for (const funding of fundings) {
    const started = nowNs()
    if (await storedFundingFile(db.knex, account, funding.filename)) throw new Error(`${funding.filename} is stored already`)
    const entries = sampled(client.fundings.fundingDownload(funding.downloadLink), peak, Math.ceil(expectedLines / 2))
    const result = await importFundingFile(db.knex, { account, providerId: PROVIDER_ID, funding, entries })
    fileMs.push(nsToMs(nowNs() - started))
    if (result.outcome !== "imported" || result.lines !== expectedLines || result.unreadableLines !== 0 || !result.totalsAgree) {
      throw new Error(`${funding.filename}: unexpected import result ${JSON.stringify(result)}`)
    }
    if (fileMs.length % 10 === 0) log(`payouts: ${fileMs.length}/${fundings.length} files of ${int(expectedLines)} lines (${(nsToMs(nowNs() - t0) / 1000).toFixed(1)} s)`)
  }
  const totalMs = nsToMs(nowNs() - t0)
  return { files: fundings.length, lines: fundings.length * expectedLines, fileMs, totalMs, heapBefore, heapAfter: heapAfterGc(), peak: peak.stop() }
}

/**
 * Medusa's side: captures and refunds of every `step`-th line of the series (every tenth of them a
 * refund). Odd ones are captures whose identifier AltaPay did not keep (the line has another one):
 * they match by AltaPay payment and amount.
 */
function movements(count: number, step: number, dateOf: (index: number) => string): { batch: (from: number, to: number) => MoneyMovementInput[]; expected: MatchResult } {
  const expected: MatchResult = { byReconciliationIdentifier: 0, byPaymentAndAmount: 0 }
  const one = (j: number): MoneyMovementInput => {
    const index = j * step + (j % 10 === 9 ? 9 : 0)
    const line = generatedLine({ ...SPEC, lines: 1, firstIndex: 0, date: dateOf(index) } satisfies GeneratedFundingSpec, index)
    const t = line.transaction as NonNullable<typeof line.transaction>
    const kind = line.type === "refund" ? "refund" : "capture"
    const withIdentifier = kind === "refund" || j % 2 === 0
    return {
      kind,
      // Without the identifier, the module assumes medusa-capture-<id>: another id keeps it off the line's.
      medusaId: `${kind === "refund" ? REFUND_ID : CAPTURE_ID}${withIdentifier ? "" : "other_"}${index}`,
      paymentId: `pay_bench_${index}`,
      orderId: `order_bench_${index}`,
      providerId: PROVIDER_ID,
      reconciliationIdentifier: withIdentifier ? t.reconciliationIdentifier : null,
      altapayPaymentId: t.paymentId,
      altapayOrderId: t.shopOrderId,
      currency: t.currency.toLowerCase(),
      amountMinor: Math.abs(t.amountMinor),
      recordedAt: new Date(Date.parse(line.date) - DAY_MS),
    }
  }
  for (let j = 0; j < count; j++) {
    if (j % 10 === 9 || j % 2 === 0) expected.byReconciliationIdentifier++
    else expected.byPaymentAndAmount++
  }
  return { batch: (from, to) => Array.from({ length: to - from }, (_, k) => one(from + k)), expected }
}

/** First call and the median of five more, ms. */
async function timed(op: () => Promise<unknown>): Promise<string> {
  const t0 = nowNs()
  await op()
  const first = nsToMs(nowNs() - t0)
  const again: number[] = []
  for (let i = 0; i < 5; i++) {
    const t = nowNs()
    await op()
    again.push(nsToMs(nowNs() - t))
  }
  return `${first.toFixed(1)} ms first, ${median(again).toFixed(1)} ms median of 5 more`
}

function phaseRows(p: Phase, label: string): Row[] {
  const sorted = [...p.fileMs].sort((a, b) => a - b)
  return [
    row(`import ${label}: ${p.files} files, ${int(p.lines)} lines`, `${(p.totalMs / 1000).toFixed(1)} s; ${int(p.lines / (p.totalMs / 1000))} lines/s`),
    row(`time per ${label} file: median / min / max`, `${median(p.fileMs).toFixed(0)} / ${sorted[0].toFixed(0)} / ${sorted[sorted.length - 1].toFixed(0)} ms`),
    row(
      `importer memory, ${label} files: peak RSS / peak heap sampled / heap after GC mid-file, highest (after GC before -> after the files)`,
      `${mb(p.peak.rss)} / ${mb(p.peak.heap)} / ${mb(p.peak.live)} (${mb(p.heapBefore)} -> ${mb(p.heapAfter)})`
    ),
  ]
}

export async function fundingsBench(sandbox: RemoteSandbox, log: (m: string) => void): Promise<Row[]> {
  const files = size("BENCH_FUNDINGS_FILES", 100)
  const lines = size("BENCH_FUNDINGS_LINES", 10_000)
  const smallFiles = size("BENCH_FUNDINGS_SMALL_FILES", 10)
  const smallLines = 1_000
  const step = Math.max(10, Math.floor((files * lines) / size("BENCH_FUNDINGS_MOVEMENTS", 100_000)))
  const movementCount = Math.floor((files * lines) / step)
  log(`payouts: ${smallFiles} files of ${int(smallLines)} lines, then ${files} of ${int(lines)} (${int(files * lines)} lines); ${int(movementCount)} captures and refunds`)

  const firstDay = Date.parse("2026-01-01T00:00:00Z")
  await sandbox.addGeneratedFundings(fileInputs(smallFiles, smallLines, files * lines, "small", firstDay - (smallFiles + 1) * DAY_MS))
  await sandbox.addGeneratedFundings(fileInputs(files, lines, 0, "large", firstDay))
  const client = createAltaPayClient({ checkoutUrl: sandbox.url, gatewayUrl: sandbox.url, username: USER, password: PASSWORD })
  const account = `${new URL(sandbox.url).host}/${USER}`
  const db = await startPayoutsDb(log)
  try {
    const fundings = await listAll(client)
    const small = await importFiles(db, client, account, fundings.slice(0, smallFiles), smallLines, log)
    log(`payouts: ${smallFiles} small files in ${(small.totalMs / 1000).toFixed(1)} s`)
    const large = await importFiles(db, client, account, fundings.slice(smallFiles), lines, log)
    const total = large.totalMs + small.totalMs
    log(`payouts: ${int(large.lines)} lines in ${(large.totalMs / 1000).toFixed(1)} s`)

    const { batch, expected } = movements(movementCount, step, (index) => new Date(firstDay + (Math.floor(index / lines) - 1) * DAY_MS).toISOString().slice(0, 10))
    const tm = nowNs()
    let recorded = 0
    for (let from = 0; from < movementCount; from += 5_000) recorded += (await recordMovements(db.knex, batch(from, Math.min(movementCount, from + 5_000)))).length
    const movementsMs = nsToMs(nowNs() - tm)
    log(`payouts: ${int(recorded)} captures and refunds recorded in ${(movementsMs / 1000).toFixed(1)} s; matching`)
    const tmatch = nowNs()
    const matched = await matchLines(db.knex)
    const matchMs = nsToMs(nowNs() - tmatch)
    log(`payouts: matched ${JSON.stringify(matched)} in ${(matchMs / 1000).toFixed(1)} s; paged reads`)

    const pageSize = 20
    const { count } = await listPayoutFiles(db.knex, { limit: pageSize, offset: 0 })
    const lastOffset = Math.floor((count - 1) / pageSize) * pageSize
    const bigFile = (await db.knex("altapay_funding_file").where({ filename: fundings[smallFiles].filename }).first("id")) as { id: string }
    const exceptionQuery = { unfundedBefore: { default: new Date(Date.now() - 14 * DAY_MS) }, limit: 50, offset: 0 }
    const { count: exceptionCount } = await listPayoutExceptions(db.knex, exceptionQuery)
    const reads: Row[] = [
      row(`listPayoutFiles page 1 (${pageSize} of ${count} files)`, await timed(() => listPayoutFiles(db.knex, { limit: pageSize, offset: 0 }))),
      row(`listPayoutFiles last page (offset ${lastOffset})`, await timed(() => listPayoutFiles(db.knex, { limit: pageSize, offset: lastOffset }))),
      row(
        `listPayoutFileLines, last page of a ${int(lines)}-line file (50 lines, offset ${lines - 50})`,
        await timed(() => listPayoutFileLines(db.knex, bigFile.id, { limit: 50, offset: lines - 50 }))
      ),
      row(`listPayoutExceptions first page (50 of ${int(exceptionCount)}, every kind)`, await timed(() => listPayoutExceptions(db.knex, exceptionQuery))),
      row("payoutsForPayments, one payment (the order page)", await timed(() => payoutsForPayments(db.knex, [`pay_bench_${step}`]))),
    ]
    // The same files read again without the database: the client's share of a file's import.
    const readMs: number[] = []
    for (const funding of fundings.slice(smallFiles, smallFiles + 5)) {
      const t = nowNs()
      for await (const entry of client.fundings.fundingDownload(funding.downloadLink)) if (!entry.ok) throw new Error(entry.issue.message)
      readMs.push(nsToMs(nowNs() - t))
    }
    const bytes = await db.tableBytes()
    return [
      row("what was run", `${smallFiles} x ${int(smallLines)} then ${files} x ${int(lines)} lines, generated by the sandbox process, over HTTP; Postgres embedded, fsync off`),
      row(`import, all ${small.files + large.files} files`, `${(total / 1000).toFixed(1)} s; ${int((small.lines + large.lines) / (total / 1000))} lines/s`),
      ...phaseRows(large, `${int(lines)}-line`),
      row(`download and read only (no database), ${int(lines)}-line file: median of 5`, `${median(readMs).toFixed(0)} ms (${int(lines / (median(readMs) / 1000))} lines/s)`),
      ...phaseRows(small, `${int(smallLines)}-line`),
      row(
        `heap importing ${int(lines)}-line files / ${int(smallLines)}-line files (file size x${lines / smallLines}): after GC mid-file; peak sampled`,
        `${(large.peak.live / small.peak.live).toFixed(2)} (${mb(large.peak.live)} vs ${mb(small.peak.live)}); ${(large.peak.heap / small.peak.heap).toFixed(2)} (${mb(large.peak.heap)} vs ${mb(small.peak.heap)})`
      ),
      row(`recordMovements, ${int(recorded)} captures and refunds (batches of 5,000)`, `${(movementsMs / 1000).toFixed(1)} s`),
      row(
        `matchLines over ${int(large.lines + small.lines)} lines`,
        `${(matchMs / 1000).toFixed(1)} s; ${int(matched.byReconciliationIdentifier)} by identifier, ${int(matched.byPaymentAndAmount)} by payment and amount (expected ${int(expected.byReconciliationIdentifier)} and ${int(expected.byPaymentAndAmount)})`
      ),
      ...reads,
      row(
        "Postgres size with indexes: files / lines / movements",
        `${Object.values(bytes).map(mb).join(" / ")} (${int(bytes.altapay_funding_line / (large.lines + small.lines))} bytes a line)`
      ),
    ]
  } finally {
    await db.stop()
  }
}
