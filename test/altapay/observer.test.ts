import type { AltaPayCall } from "../../src/altapay"
import { authorizedPayment, startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"

describe("the client's observer hook", () => {
  let pair: SandboxPair
  const calls: AltaPayCall[] = []
  let observed: SandboxPair["client"]
  beforeAll(async () => {
    pair = await startSandboxAndClient()
    observed = pair.clientWith({ observer: { onCall: (call) => calls.push(call) } })
  })
  afterAll(() => pair.close())
  afterEach(() => {
    pair.sandbox.faults.clear()
    calls.length = 0
  })
  const last = (operation: string) => calls.filter((c) => c.operation === operation).at(-1)

  it("tells each call: operation, status, AltaPay's result, reconciliation identifier, the transaction", async () => {
    const { transactionId } = await authorizedPayment(pair, 10000)
    await observed.gateway.captureReservation({ transactionId, amountMinor: 4000, currency: "DKK", reconciliationIdentifier: "medusa-capture-1" })
    const call = last("POST /merchant/API/captureReservation")
    expect(call).toMatchObject({ status: 200, outcome: "success", result: "Success", retries: 0, reconciliationIdentifier: "medusa-capture-1", subjects: { transactionId } })
    expect(call?.startedAt).toBeInstanceOf(Date)
    expect(call?.durationMs).toBeGreaterThanOrEqual(0)
  })

  it("a refused capture is declined with AltaPay's messages", async () => {
    const { transactionId } = await authorizedPayment(pair, 500)
    await observed.gateway.captureReservation({ transactionId })
    await expect(observed.gateway.captureReservation({ transactionId })).rejects.toMatchObject({ code: "declined" })
    expect(last("POST /merchant/API/captureReservation")).toMatchObject({
      outcome: "declined",
      result: "Failed",
      merchantMessage: expect.stringContaining("already fully captured"),
    })
  })

  it("a lost answer to a refund is lost; a look-up retried after a reset counts its retry", async () => {
    const { transactionId } = await authorizedPayment(pair, 2000)
    await observed.gateway.captureReservation({ transactionId })
    pair.sandbox.faults.add({ route: "refundCapturedReservation", kind: "lost-answer" })
    await expect(observed.gateway.refundCapturedReservation({ transactionId, amountMinor: 500, currency: "DKK" })).rejects.toMatchObject({ mayHaveReachedAltaPay: true })
    expect(last("POST /merchant/API/refundCapturedReservation")).toMatchObject({ outcome: "lost", errorCode: "network" })
    pair.sandbox.faults.add({ route: "payments", kind: "503" })
    await observed.gateway.payments({ transactionId })
    expect(last("GET /merchant/API/payments")).toMatchObject({ outcome: "success", retries: 1, status: 200, subjects: { transactionId } })
  })

  it("Checkout API calls name the session and the shop's order id; the MERCHANT token is a call of its own", async () => {
    const session = await observed.checkout.createSession({ orderId: "payses-observer-1", amountMinor: 1000, currency: "DKK" })
    await observed.checkout.getSession(session.sessionId)
    expect(last("POST /checkout/v1/api/session")).toMatchObject({ outcome: "success", status: 200, subjects: { shopOrderId: "payses-observer-1" } })
    expect(last("GET /checkout/v1/api/session/{sessionId}")).toMatchObject({ subjects: { sessionId: session.sessionId } })
    expect(last("POST /checkout/v1/api/authenticate")).toMatchObject({ outcome: "success" })
  })

  it("an observer that throws does not change the call", async () => {
    const throwing = pair.clientWith({
      observer: {
        onCall: () => {
          throw new Error("observer broke")
        },
      },
    })
    const { transactionId } = await authorizedPayment(pair, 700)
    await expect(throwing.gateway.captureReservation({ transactionId })).resolves.toMatchObject({ result: "Success" })
  })
})
