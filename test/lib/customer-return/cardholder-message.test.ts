/**
 * Issue 30: AltaPay's OK and fail pages must show `error_message` when
 * `cardholder_message_must_be_shown` is true, and always for Klarna (Payment OK Page, Settings for the
 * fail page). Only AltaPay's verified signed post may put text on the customer's page. Real HTTP
 * against the sandbox.
 */
import { PaymentActions } from "@medusajs/framework/utils"
import { parseCallback, signCallbackBody } from "../../../src/altapay"
import { confirmReturn } from "../../../src/lib/customer-return/confirm"
import { landingUrl, MAX_LANDING_MESSAGE } from "../../../src/lib/customer-return/landing"
import { useReturnTestBed } from "../../helpers/return-registration"

const bed = useReturnTestBed("pp_altapay_message_test")
const { options } = bed
const anonymous = () => bed.anonymous()

/** A session paid with `outcome`, unnotified; its signed return form with `cardholder_message_must_be_shown` as given. */
async function returnPost(outcome: "decline", mustBeShown = false) {
  const orderId = `order-msg-${Math.random().toString(16).slice(2)}`
  const session = await bed.pair.client.checkout.createSession({ orderId, amountMinor: 5_000, currency: "DKK" })
  const paid = await bed.pair.sandbox.simulatePayment(session.sessionId, { outcome, callback: false })
  const { rawBody, headers } = bed.pair.sandbox.callbackFor(paid.paymentId, { cardholderMessageMustBeShown: mustBeShown })
  return { orderId, transactionId: paid.transactionId!, rawBody, signatureHeader: headers["altapay-signature"] }
}

describe("the cardholder message", () => {
  it("is read from error_message when cardholder_message_must_be_shown is true, not otherwise", () => {
    const base = { shop_orderid: "o-1", status: "declined", error_message: "  Your card was declined.  ", merchant_error_message: "Acquirer said 05" }
    expect(parseCallback({ ...base, cardholder_message_must_be_shown: "true" }).cardholderMessage).toBe("Your card was declined.")
    expect(parseCallback({ ...base, cardholder_message_must_be_shown: "false" }).cardholderMessage).toBeUndefined()
    expect(parseCallback(base).cardholderMessage).toBeUndefined()
    expect(parseCallback({ ...base, error_message: " ", cardholder_message_must_be_shown: "true" }).cardholderMessage).toBeUndefined()
  })

  it("is always read for Klarna: the xml's terminal or payment service names Klarna", () => {
    const xml = (terminal: string) =>
      `<?xml version="1.0"?><APIResponse version="20170228"><Header><Date>2026-01-01T00:00:00+01:00</Date><Path>API/payments</Path><ErrorCode>0</ErrorCode><ErrorMessage/></Header>` +
      `<Body><Result>Success</Result><Transactions><Transaction><TransactionId>1</TransactionId><ShopOrderId>o-1</ShopOrderId><Terminal>${terminal}</Terminal>` +
      `<TransactionStatus>epayment_declined</TransactionStatus></Transaction></Transactions></Body></APIResponse>`
    const base = { shop_orderid: "o-1", status: "declined", error_message: "Klarna could not approve this purchase." }
    expect(parseCallback({ ...base, xml: xml("Shop Klarna DKK") }).cardholderMessage).toBe("Klarna could not approve this purchase.")
    expect(parseCallback({ ...base, xml: xml("Shop Card DKK") }).cardholderMessage).toBeUndefined()
  })

  it("a signed decline that must show its message carries it; the look-up still decides the action", async () => {
    const post = await returnPost("decline", true)
    const confirmed = await confirmReturn(
      { shopOrderId: post.orderId, rawBody: Buffer.from(post.rawBody), signatureHeader: post.signatureHeader },
      options,
      bed.pair.client,
      anonymous()
    )
    expect(confirmed).toMatchObject({ by: "look-up", result: { action: PaymentActions.FAILED }, cardholderMessage: "Your card was declined." })
    expect(confirmed.open).toBeUndefined()
  })

  it("a signed decline whose message need not be shown, an unsigned one and a forged one carry none", async () => {
    const quiet = await returnPost("decline", false)
    expect(
      (await confirmReturn({ shopOrderId: quiet.orderId, rawBody: Buffer.from(quiet.rawBody), signatureHeader: quiet.signatureHeader }, options, bed.pair.client, anonymous()))
        .cardholderMessage
    ).toBeUndefined()

    const loud = await returnPost("decline", true)
    const attacker = Buffer.from(
      new URLSearchParams({ shop_orderid: loud.orderId, status: "declined", error_message: "Call +45 0000 0000 to pay", cardholder_message_must_be_shown: "true" }).toString()
    )
    const unsigned = await confirmReturn({ shopOrderId: loud.orderId, rawBody: attacker }, options, bed.pair.client, anonymous())
    expect(unsigned).toMatchObject({ by: "look-up", result: { action: PaymentActions.FAILED } })
    expect(unsigned.cardholderMessage).toBeUndefined()
    const forged = await confirmReturn(
      { shopOrderId: loud.orderId, rawBody: attacker, signatureHeader: signCallbackBody(attacker.toString(), "not-the-callback-secret", Math.floor(Date.now() / 1000)) },
      options,
      bed.pair.client,
      anonymous()
    )
    expect(forged.cardholderMessage).toBeUndefined()
  })
})

describe("the landing URL", () => {
  const TEMPLATE = "https://shop.test/landing?outcome={outcome}&message={message}"
  it("fills {message} URL-encoded, on one line, at most MAX_LANDING_MESSAGE characters; empty without one", () => {
    expect(landingUrl(TEMPLATE, { session_id: "s", outcome: "declined", message: "Your card\nwas <b>declined</b> & more" })).toBe(
      "https://shop.test/landing?outcome=declined&message=Your%20card%20was%20%3Cb%3Edeclined%3C%2Fb%3E%20%26%20more"
    )
    expect(landingUrl(TEMPLATE, { session_id: "s", outcome: "review" })).toBe("https://shop.test/landing?outcome=review&message=")
    const long = new URL(landingUrl(TEMPLATE, { session_id: "s", outcome: "declined", message: "x".repeat(5_000) }))
    expect(long.searchParams.get("message")).toHaveLength(MAX_LANDING_MESSAGE)
  })
})
