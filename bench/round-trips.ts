/** Round trips to AltaPay per Medusa operation, counted at the sandbox's ledger. */
import type { AltaPayPaymentData } from "../src/lib/payment-data/data"
import { capturedPayment, clientOf, createProvider, fixedId, initiate, providerOptions } from "./lib/fixtures"
import type { Row } from "./lib/report"
import type { LedgerLine, RemoteSandbox } from "./lib/sandbox-process"

async function counted(sandbox: RemoteSandbox, job: () => Promise<unknown>): Promise<LedgerLine[]> {
  await sandbox.clearLedger()
  await job()
  return (await sandbox.ledger()).filter((line) => line.operation !== "payment.simulate")
}

const names = (lines: LedgerLine[]): string => lines.map((l) => l.operation + (l.auth === "bearer:CUSTOMER" ? "(CUSTOMER)" : "") + (l.fault ? `[${l.fault}]` : "")).join(" + ")

export async function roundTrips(sandbox: RemoteSandbox): Promise<Row[]> {
  const storefrontOptions = providerOptions(sandbox, "storefront")
  const storefront = createProvider(storefrontOptions)
  const redirect = createProvider(providerOptions(sandbox, "redirect"))
  const client = clientOf(storefrontOptions)
  await client.tokens.merchantToken() // warm

  const rows: Row[] = []
  const row = (figure: string, lines: LedgerLine[], target: number, note?: string, passes = lines.length <= target): void => {
    rows.push({ figure, measured: `${lines.length} (${names(lines)})`, target: `${target}`, status: passes ? "pass" : "miss", ...(note ? { note } : {}) })
  }

  let session!: AltaPayPaymentData
  row("session creation, flow storefront, warm token", await counted(sandbox, async () => (session = await initiate(storefront))), 1)
  row(
    "session creation, flow redirect (default), warm token",
    await counted(sandbox, () => initiate(redirect)),
    4,
    "redirect flow: the server also creates the payment the customer is sent to (payment methods, a CUSTOMER token, the payment)"
  )
  row("CUSTOMER token", await counted(sandbox, () => client.tokens.customerToken(session.altapay_session_id)), 1)

  const paid = await initiate(storefront)
  await sandbox.simulatePayment(paid.altapay_session_id)
  let authorized!: AltaPayPaymentData
  row(
    "authorize",
    await counted(
      sandbox,
      async () => (authorized = (await storefront.authorizePayment({ data: paid as never, context: { idempotency_key: paid.order_id } })).data as unknown as AltaPayPaymentData)
    ),
    1
  )
  let captured!: AltaPayPaymentData
  row(
    "capture",
    await counted(sandbox, async () => {
      captured = (await storefront.capturePayment({ data: authorized as never, context: { idempotency_key: fixedId("capt") } })).data as unknown as AltaPayPaymentData
    }),
    1
  )
  row(
    "refund",
    await counted(sandbox, () => storefront.refundPayment({ data: captured as never, amount: 1, context: { idempotency_key: fixedId("ref") } })),
    1,
    "payments look-up before the refund (retried-refund detection, exact refundable amount): see notes"
  )

  const lost = await capturedPayment(storefront, sandbox)
  await sandbox.fault({ route: "refundCapturedReservation", kind: "lost-answer" })
  row(
    "refund whose answer is lost (reconciled)",
    await counted(sandbox, () => storefront.refundPayment({ data: lost as never, amount: 1, context: { idempotency_key: fixedId("ref") } })),
    2,
    "look-up before + refund + look-up that finds the refund by reconciliation_identifier"
  )
  await sandbox.clearFaults()

  // A client of its own (other settings, so not the shared one): its token cache is cold.
  const cold = createProvider(providerOptions(sandbox, "storefront", { connectTimeoutMs: 4_999 }))
  const burst = await counted(sandbox, () => Promise.all(Array.from({ length: 500 }, () => initiate(cold))))
  const authenticates = burst.filter((l) => l.operation === "authenticate").length
  const sessions = burst.filter((l) => l.operation === "session.create").length
  rows.push({
    figure: "500 concurrent initiates, cold token cache: authenticate calls",
    measured: `${authenticates} (and ${sessions} session.create)`,
    target: "1",
    status: authenticates === 1 && sessions === 500 ? "pass" : "miss",
  })
  await sandbox.clearLedger()
  return rows
}
