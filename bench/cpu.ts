/**
 * CPU: reading a `payments` answer with 50 transactions (parseGatewayResponse against a bare
 * fast-xml-parser parse of the same XML), and building the lines of a 500-line cart.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { buildOrderLines, parseGatewayResponse, type OrderLineSource } from "../src/altapay"
import { parserOptions } from "../src/altapay/xml"
import { canonicalJson, freshPaymentData, openPaymentData, sealPaymentData, type AltaPayPaymentData } from "../src/lib/payment-data/data"
import { serverKeys } from "../src/lib/registrations/server-keys"
import { fixedId, recordWire, refundRig, sendBare, substitute } from "./lib/fixtures"
import type { Row } from "./lib/report"
import type { RemoteSandbox } from "./lib/sandbox-process"
import { interleaved, median, medianRatio, throughput } from "./lib/timing"

/** The client's parser settings, so the bare parse reads the XML the same way (minus character references). */
const bareParser = new XMLParser(parserOptions)

/**
 * The client's parser as it was before it stopped asking for path strings (`jPath: true`: the
 * parser builds the dotted path of every element, text and attribute), for the before/after row.
 */
const REPEATED_PATHS = [".Transactions.Transaction", ".PaymentInfos.PaymentInfo", ".ReconciliationIdentifiers.ReconciliationIdentifier"]
const pathStringParser = new XMLParser({ ...parserOptions, jPath: true, isArray: (_name, jPath) => typeof jPath === "string" && REPEATED_PATHS.some((p) => jPath.endsWith(p)) })

/** A payments answer with `count` copies of a real sandbox Transaction, each with its own id. */
export function manyTransactions(oneTransactionXml: string, count: number): string {
  const match = /<Transaction>[\s\S]*<\/Transaction>/.exec(oneTransactionXml)
  const id = /<TransactionId>([^<]+)<\/TransactionId>/.exec(oneTransactionXml)?.[1]
  if (!match || !id) throw new Error("the sandbox's payments answer has no Transaction")
  const copies = Array.from({ length: count }, (_, i) => match[0].split(`<TransactionId>${id}</TransactionId>`).join(`<TransactionId>${20000000 + i}</TransactionId>`))
  return oneTransactionXml.replace(match[0], copies.join(""))
}

/** The seal's canonical JSON as it was built before (entries, filter, sort, map), for the before/after row. */
function canonicalJsonBefore(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJsonBefore(v))).join(",")}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJsonBefore(v)}`).join(",")}}`
}

/** A captured payment's data after `refunds` partial refunds of one line each. */
function paymentWithRefunds(refunds: number): AltaPayPaymentData {
  const lines = [
    { description: "Tee", itemId: "item_1", quantity: 2, unitPriceMinor: 17960, taxAmountMinor: 4490, taxPercent: 25, goodsType: "item" as const },
    { description: "Standard shipping", itemId: "ship_1", quantity: 1, unitPriceMinor: 3920, taxAmountMinor: 980, taxPercent: 25, goodsType: "shipment" as const },
  ]
  const at = "2026-11-23T10:00:00.000Z"
  return {
    ...freshPaymentData({
      altapay_session_id: "ses_1",
      order_id: "payses_1",
      amount_minor: 44900,
      currency: "DKK",
      terminal: "Shop DKK",
      auto_capture: false,
      order_lines: lines,
      order_lines_source: "query",
    }),
    transaction_id: "1000001",
    captured_minor: 44900,
    refunded_minor: refunds * 100,
    captures: [{ capture_id: "capt_1", reconciliation_identifier: "medusa-capture-capt_1", amount_minor: 44900, created_at: at }],
    refunds: Array.from({ length: refunds }, (_, i) => ({
      refund_id: `ref_${i}`,
      reconciliation_identifier: `medusa-refund-ref_${i}`,
      amount_minor: 100,
      medusa_amount: "1",
      status: "succeeded" as const,
      created_at: at,
      order_lines: [{ description: "Refund", itemId: "refund", quantity: 1, unitPriceMinor: 80, taxAmountMinor: 20, taxPercent: 25 }],
    })),
    revision: refunds + 2,
  }
}

/** Mean CPU µs per call over `count` calls (CPU, not wall: the machine is shared). */
function perCall(count: number, fn: () => unknown): number {
  const before = process.cpuUsage()
  for (let i = 0; i < count; i++) fn()
  const { user, system } = process.cpuUsage(before)
  return (user + system) / count
}

export function cart(lines: number): OrderLineSource {
  const items = Array.from({ length: lines }, (_, i) => ({
    id: `item_${i}`,
    title: `Product number ${i} with a reasonably long descriptive title`,
    sku: `SKU-${i}`,
    quantity: 1 + (i % 3),
    unitPriceMinor: 999 + i * 7,
    taxInclusive: true,
    taxRates: [{ rate: 25 }],
    ...(i % 10 === 0 ? { discountMinor: 100 } : {}),
    productUrl: `https://shop.example/products/p-${i}`,
  }))
  const shipping = [{ id: "ship_1", name: "Standard", amountMinor: 4900, taxInclusive: true, taxRates: [{ rate: 25 }] }]
  const totalMinor = items.reduce((sum, it) => sum + it.unitPriceMinor * it.quantity - (it.discountMinor ?? 0), 0) + 4900
  return { currency: "DKK", totalMinor, items, shipping }
}

export async function cpuRows(oneTransactionXml: string, log: (m: string) => void): Promise<Row[]> {
  const xml = manyTransactions(oneTransactionXml, 50)
  const parsed = parseGatewayResponse(xml)
  if (parsed.transactions.length !== 50) throw new Error(`expected 50 transactions, read ${parsed.transactions.length}`)
  const source = cart(500)
  const lineCount = buildOrderLines(source).length

  const N = 20
  const fns: Record<string, () => unknown> = {
    client: () => parseGatewayResponse(xml),
    bare: () => bareParser.parse(xml),
    validate: () => XMLValidator.validate(xml),
  }
  for (const fn of Object.values(fns)) perCall(N, fn)
  log(`cpu: ${Math.round(xml.length / 1024)} KiB payments answer with 50 transactions, 9 rounds x ${N} parses per variant`)
  const t = await interleaved(Object.keys(fns), 9, async (name) => perCall(N, fns[name]))
  const ratio = medianRatio(t.client, t.bare)

  log("cpu: buildOrderLines, 500-line cart, 9 rounds x 50 builds")
  perCall(50, () => buildOrderLines(source))
  const build = await interleaved(["build"], 9, async () => perCall(50, () => buildOrderLines(source)))

  const history = paymentWithRefunds(30)
  if (canonicalJson(history) !== canonicalJsonBefore(history)) throw new Error("canonicalJson no longer matches the encoding seals were made with")
  const encoders: Record<string, () => unknown> = { now: () => canonicalJson(history), before: () => canonicalJsonBefore(history) }
  for (const fn of Object.values(encoders)) perCall(500, fn)
  log("cpu: the seal's canonical JSON of a payment with 30 refunds, before and now, 9 rounds x 1000 encodings")
  const encode = await interleaved(Object.keys(encoders), 9, async (name) => perCall(1000, encoders[name]))
  const encodeGain = medianRatio(encode.before, encode.now)
  const keys = serverKeys({ username: "bench", password: "bench", providerId: "altapay", backendUrl: "https://shop.example" }, "payment-data-seal")
  const stored = JSON.parse(JSON.stringify(sealPaymentData(history, keys))) as Record<string, unknown>
  if (!openPaymentData(stored, keys).sealed) throw new Error("the bench's sealed payment data does not verify")
  const check = await interleaved(["check"], 9, async () => perCall(1000, () => openPaymentData(stored, keys)))

  const f = (v: number): string => (v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${Math.round(v)} µs`)
  return [
    {
      figure: "before/after: canonical JSON of payment data with 30 refunds, for its seal (entries, filter, sort, map before / built by hand now; same text)",
      measured: `${encodeGain.toFixed(2)}x (${f(median(encode.before))} vs ${f(median(encode.now))})`,
      target: "> 1",
      status: encodeGain > 1 ? "pass" : "miss",
    },
    {
      figure: "checking the seal of payment data with 30 refunds (openPaymentData: zod, canonical JSON, HMAC), saved once per capture and refund when Medusa's copy is the newest",
      measured: f(median(check.check)),
      target: "report",
      status: "info",
    },
    {
      figure: "parse payments answer, 50 transactions: parseGatewayResponse / bare fast-xml-parser",
      measured: `${ratio.toFixed(2)}x (${f(median(t.client))} vs ${f(median(t.bare))}; XMLValidator.validate alone ${f(median(t.validate))})`,
      target: "<= 1.5x",
      status: ratio <= 1.5 ? "pass" : "miss",
    },
    { figure: `buildOrderLines, 500-line cart (${lineCount} lines out)`, measured: f(median(build.build)), target: "report", status: "info" },
  ]
}

/** CPU µs this process spent per call of `op`, `count` calls at 64 in flight. */
async function cpuPerCall(count: number, op: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage()
  await throughput(count, 64, op)
  const { user, system } = process.cpuUsage(before)
  return (user + system) / count
}

/**
 * The client's CPU per refund against the floor: a bare undici request with the same bytes plus
 * fast-xml-parser's own parse of the same answer (what any client that reads the answer pays).
 */
export async function refundCpuRows(sandbox: RemoteSandbox, payments: AltaPayPaymentData[], log: (m: string) => void): Promise<Row[]> {
  const { pool, nextPayment, providerRefund, clientRefund } = refundRig(sandbox, payments)
  const first = nextPayment()
  const key0 = fixedId("ref")
  const [refund] = await recordWire(() => clientRefund(first, key0))
  if (!refund?.path.endsWith("/refundCapturedReservation")) throw new Error("expected the client to send refundCapturedReservation")
  let answer = ""
  const variants: Record<string, () => Promise<unknown>> = {
    client: () => clientRefund(),
    bare: async () => {
      answer = await sendBare(pool, substitute(refund, { [first.transaction_id!]: nextPayment().transaction_id!, [key0]: fixedId("ref") }))
    },
    provider: providerRefund,
  }
  const names = Object.keys(variants)
  for (const name of names) await cpuPerCall(200, variants[name])
  const ROUNDS = 7
  const COUNT = 300
  log(`cpu: refunds, ${ROUNDS} rounds x ${COUNT} calls at 64 in flight per variant (${names.join(", ")}); CPU of this process`)
  const cpu = await interleaved(names, ROUNDS, (name) => cpuPerCall(COUNT, variants[name]))
  await pool.close()
  // The answer of a refund made half-way through (each refund adds a ReconciliationIdentifier).
  const parsers = { now: () => bareParser.parse(answer), before: () => pathStringParser.parse(answer) }
  for (const parse of Object.values(parsers)) perCall(200, parse) // warm-up
  log("cpu: the refund answer parsed with and without path strings, 9 rounds x 300 parses")
  const parses = await interleaved(["now", "before"] as const, 9, async (name) => perCall(300, parsers[name]))
  const parseUs = median(parses.now)
  const parseGain = medianRatio(parses.before, parses.now)
  const clientUs = median(cpu.client)
  const bareUs = median(cpu.bare)
  const ratio = clientUs / (bareUs + parseUs)
  return [
    {
      figure: "CPU per refund: client refundCapturedReservation / (bare request + fast-xml-parser parse of the answer)",
      measured: `${ratio.toFixed(2)}x (${Math.round(clientUs)} µs vs ${Math.round(bareUs)} + ${Math.round(parseUs)} µs; ${Math.round(answer.length / 1024)} KiB answer)`,
      target: "<= 3x",
      status: ratio <= 3 ? "pass" : "miss",
    },
    {
      figure: "before/after: fast-xml-parser on the refund answer with path strings (jPath: true, before) / without (the client now)",
      measured: `${parseGain.toFixed(2)}x (${Math.round(median(parses.before))} µs vs ${Math.round(parseUs)} µs per parse)`,
      target: "> 1",
      status: parseGain > 1 ? "pass" : "miss",
    },
    {
      figure: "CPU per refund: provider refundPayment (look-up + refund)",
      measured: `${Math.round(median(cpu.provider))} µs (${(median(cpu.provider) / bareUs).toFixed(1)}x one bare request)`,
      target: "report",
      status: "info",
    },
  ]
}
