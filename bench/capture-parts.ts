/**
 * What a capture's CPU is made of, one call at a time, against the floor's parse (fast-xml-parser
 * on the same answer): what issue 39's 64-in-flight rows come from, without the queue and the
 * scheduler that make those rows move between runs. AltaPay's answer is handed back at once below
 * the transport (undici's dispatch, as recordWire hooks it), so only this process's own work is
 * timed; the bare request's CPU is measured against the sandbox, as the floor sends it. CPU of the
 * main thread (timing.ts): the compiler's and collector's helper threads set no queue. A part
 * timed alone runs warm in a loop; within a capture it costs more, so the parts do not add up.
 */
import { XMLParser } from "fast-xml-parser"
import { Pool, type Dispatcher } from "undici"
import { parseGatewayResponse, parserOptions } from "../src/altapay/xml"
import { openPaymentData, sealPaymentData, type AltaPayPaymentData } from "../src/lib/payment-data/data"
import { parseAltaPayOptions } from "../src/lib/registrations/options"
import { serverKeys } from "../src/lib/registrations/server-keys"
import { moneyDoorFor } from "../src/lib/money-door/door"
import { paymentLockKey, paymentLockOn } from "../src/lib/scale-out/shared-state"
import { authorizedSupply, barePool, clientOf, createProvider, fixedId, providerOptions, recordedCapture, sendBare, substitute } from "./lib/fixtures"
import type { Row } from "./lib/report"
import type { RemoteSandbox } from "./lib/sandbox-process"
import { interleaved, mainThreadCpuPerCall, median } from "./lib/timing"

const ROUNDS = 15
const CALLS = 200
/** The target issue 39 sets at 64 in flight, here for the same ratio one call at a time. */
const TARGET = 1.1

type Part = "parse" | "bare" | "read" | "client" | "provider" | "seal" | "open" | "door"
const PARTS: Part[] = ["parse", "bare", "read", "client", "provider", "seal", "open", "door"]

/** Runs `job` with every request answered at once with `answer(body)` instead of a socket. */
async function answeredAtOnce<T>(answer: (body: string) => string, job: () => Promise<T>): Promise<T> {
  const proto = Pool.prototype as unknown as { dispatch: (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => boolean }
  const original = proto.dispatch
  proto.dispatch = (opts, handler) => {
    const bytes = Buffer.from(answer(String(opts.body)))
    const controller = { abort: () => undefined, pause: () => undefined, resume: () => undefined, paused: false, aborted: false, reason: null }
    queueMicrotask(() => {
      handler.onRequestStart?.(controller, {})
      handler.onResponseStart?.(controller, 200, { "content-type": "text/xml", "content-length": String(bytes.length) }, "OK")
      handler.onResponseData?.(controller, bytes)
      handler.onResponseEnd?.(controller, {})
    })
    return true
  }
  try {
    return await job()
  } finally {
    proto.dispatch = original
  }
}

export async function capturePartsRows(sandbox: RemoteSandbox, log: (m: string) => void): Promise<Row[]> {
  const options = providerOptions(sandbox, "storefront")
  const provider = createProvider(options)
  const client = clientOf(options)
  const parsed = parseAltaPayOptions(options)
  if ("problems" in parsed) throw new Error(parsed.problems.join("; "))
  const keys = serverKeys(parsed.options, "payment-data-seal")
  const parser = new XMLParser(parserOptions)
  const pool = barePool(sandbox.url)

  // Each capture (bare, client, provider) needs a payment of its own: AltaPay captures once, the door keeps attempts per payment.
  const needed = 3 * (ROUNDS + 1) * CALLS + 3
  log(`capture parts: ${needed} authorized payments`)
  const take = await authorizedSupply(needed, provider, sandbox)

  // One real capture at the sandbox gives the request's bytes and AltaPay's answer to hand back.
  const first = take()
  const { request, key: firstKey } = await recordedCapture(provider, first)
  const second = take()
  const secondKey = fixedId("capt")
  const answer = await sendBare(pool, substitute(request, { [first.transaction_id!]: second.transaction_id!, [firstKey]: secondKey }))
  // Each call's answer names its own transaction and capture, as AltaPay's would (ids of one width: the same bytes).
  const fieldOf = (form: string, name: string): string => {
    const start = form.indexOf(`${name}=`) + name.length + 1
    const end = form.indexOf("&", start)
    return decodeURIComponent(form.slice(start, end < 0 ? undefined : end))
  }
  const secondReconciliation = fieldOf(request.body!.replace(firstKey, secondKey), "reconciliation_identifier")
  const answerFor = (form: string): string =>
    answer.replaceAll(second.transaction_id!, fieldOf(form, "transaction_id")).replaceAll(secondReconciliation, fieldOf(form, "reconciliation_identifier"))
  const captured = (await provider.capturePayment({ data: take() as never, context: { idempotency_key: fixedId("capt") } })) as unknown as { data: AltaPayPaymentData }
  const { altapay_seal: _seal, ...capturedData } = captured.data as AltaPayPaymentData & { altapay_seal?: string }
  // Medusa hands the data back from its database: a copy, not the object returned.
  const stored = JSON.parse(JSON.stringify(captured.data)) as Record<string, unknown>
  if (!openPaymentData(stored, keys).sealed) throw new Error("capture parts: the captured data's seal does not verify")
  await sandbox.clearLedger()

  // The door as a capture uses it (the process's store and lock), its movement answered at once: what the door itself costs.
  const door = moneyDoorFor({ store: undefined, paymentLock: paymentLockOn(undefined) }, 30_000)
  let doorMovements = 0
  const throughDoor = () => {
    const transaction = `door${String(doorMovements++).padStart(11, "0")}`
    return door.move({
      kind: "capture",
      subject: `transaction:${transaction}`,
      lockKey: paymentLockKey(transaction),
      attempt: { id: `medusa-capture-${fixedId("capt")}`, amountMinor: first.amount_minor, currency: first.currency, key: fixedId("capt") },
      lookFirst: false,
      recorded: () => false,
      look: () => Promise.reject(new Error("the door asked AltaPay with nothing uncertain")),
      happened: () => false,
      adopt: () => undefined,
      prepare: () => ({ beforeMinor: 0, detail: { lines: first.order_lines }, send: () => Promise.resolve(undefined) }),
    })
  }

  const ops: Record<Part, () => unknown> = {
    parse: () => parser.parse(answer),
    bare: () => sendBare(pool, substitute(request, { [first.transaction_id!]: take().transaction_id!, [firstKey]: fixedId("capt") })),
    read: () => parseGatewayResponse(answer),
    client: () => {
      const p = take()
      return answeredAtOnce(answerFor, () =>
        client.gateway.captureReservation({
          transactionId: p.transaction_id!,
          amountMinor: p.amount_minor,
          currency: p.currency,
          orderLines: p.order_lines ?? [],
          reconciliationIdentifier: `medusa-capture-${fixedId("capt")}`,
        })
      )
    },
    provider: () => answeredAtOnce(answerFor, () => provider.capturePayment({ data: take() as never, context: { idempotency_key: fixedId("capt") } })),
    seal: () => sealPaymentData(capturedData as AltaPayPaymentData, keys),
    open: () => openPaymentData(stored, keys),
    door: throughDoor,
  }
  for (const part of PARTS) await mainThreadCpuPerCall(CALLS, 1, ops[part]) // JIT, connections
  log(`capture parts: ${ROUNDS} rounds x ${CALLS} calls per part, one at a time`)
  const samples = await interleaved(PARTS, ROUNDS, (part) => mainThreadCpuPerCall(CALLS, 1, ops[part]))
  await pool.close()
  await sandbox.clearLedger()

  const us = Object.fromEntries(PARTS.map((p) => [p, median(samples[p])])) as Record<Part, number>
  const of = (part: Part, base: Part) => `${(us[part] / us[base]).toFixed(2)} (${us[part].toFixed(0)} us vs ${us[base].toFixed(0)} us)`
  const row = (figure: string, measured: string, target = "report", status: Row["status"] = "info"): Row => ({ figure, measured, target, status })
  const floor = us.bare + us.parse
  const estimate = (us.bare + us.provider) / floor
  return [
    row("floor: fast-xml-parser's parse of a capture's answer, CPU per call", `${us.parse.toFixed(0)} us (${answer.length} bytes)`),
    row("floor: bare request with the provider's bytes, CPU per call", `${us.bare.toFixed(0)} us`),
    row("client, alone: reading the answer (parseGatewayResponse) / the floor's parse", of("read", "parse")),
    row("client, alone: captureReservation without the socket (request fields, transport, reading) / the floor's parse", of("client", "parse")),
    row("provider: capturePayment through the money door without the socket / the floor's parse", of("provider", "parse")),
    row("provider, alone: sealing the captured payment data / the floor's parse", of("seal", "parse")),
    row("provider, alone: opening Medusa's copy of it / the floor's parse", of("open", "parse")),
    row("provider, alone: the money door (lock, attempt read and write, decision) / the floor's parse", of("door", "parse")),
    row(
      "capture one at a time: (bare + provider without the socket) / (bare + floor's parse)",
      `${estimate.toFixed(2)} (${(us.bare + us.provider).toFixed(0)} us vs ${floor.toFixed(0)} us)`,
      `<= ${TARGET}`,
      estimate <= TARGET ? "pass" : "miss"
    ),
  ]
}
