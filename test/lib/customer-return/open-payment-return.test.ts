/**
 * Issue 30: an open payment (AltaPay's status `open`, e.g. Klarna's manual review; Payment OK Page:
 * "Open") is neither paid nor failed: the customer's return says so, from AltaPay's signed post or its
 * record, until AltaPay concludes it. Real HTTP against the sandbox.
 */
import { PaymentActions } from "@medusajs/framework/utils"
import { signCallbackBody } from "../../../src/altapay"
import { confirmReturn } from "../../../src/lib/customer-return/confirm"
import { CALLBACK_SECRET } from "../../helpers/sandbox"
import { useReturnTestBed } from "../../helpers/return-registration"

const bed = useReturnTestBed("pp_altapay_review_test")
const { options } = bed
const anonymous = () => bed.anonymous()

/** A session paid with `outcome`, unnotified; its signed return form. */
async function returnPost(outcome: "decline" | "open") {
  const orderId = `order-msg-${Math.random().toString(16).slice(2)}`
  const session = await bed.pair.client.checkout.createSession({ orderId, amountMinor: 5_000, currency: "DKK" })
  const paid = await bed.pair.sandbox.simulatePayment(session.sessionId, { outcome, callback: false })
  const { rawBody, headers } = bed.pair.sandbox.callbackFor(paid.paymentId)
  return { orderId, transactionId: paid.transactionId!, rawBody, signatureHeader: headers["altapay-signature"] }
}

/** The form re-signed with the callback secret after `edit` (what AltaPay would have signed). */
function resigned(rawBody: string, edit: (form: URLSearchParams) => void): { rawBody: Buffer; signatureHeader: string } {
  const form = new URLSearchParams(rawBody)
  edit(form)
  const body = form.toString()
  return { rawBody: Buffer.from(body), signatureHeader: signCallbackBody(body, CALLBACK_SECRET, Math.floor(Date.now() / 1000)) }
}

describe("an open payment (AltaPay's status open)", () => {
  it("is open by AltaPay's record, signed post or not, until AltaPay concludes it", async () => {
    const post = await returnPost("open")
    expect(new URLSearchParams(post.rawBody).get("status")).toBe("open")
    const signed = await confirmReturn(
      { shopOrderId: post.orderId, rawBody: Buffer.from(post.rawBody), signatureHeader: post.signatureHeader },
      options,
      bed.pair.client,
      anonymous()
    )
    expect(signed).toMatchObject({ by: "look-up", open: true, result: { action: PaymentActions.NOT_SUPPORTED } })
    const anonymousGet = await confirmReturn({ shopOrderId: post.orderId }, options, bed.pair.client, anonymous())
    expect(anonymousGet).toMatchObject({ by: "look-up", open: true })

    bed.pair.sandbox.concludeOpenPayment(post.transactionId, "authorize")
    const settled = await confirmReturn({ shopOrderId: post.orderId }, options, bed.pair.client, anonymous())
    expect(settled.result.action).toBe(PaymentActions.AUTHORIZED)
    expect(settled.open).toBeUndefined()
  })

  it("a signed open post is open even before AltaPay's record shows the payment; a declined record is not open", async () => {
    const post = await returnPost("decline")
    const saysOpen = resigned(post.rawBody, (form) => form.set("status", "open"))
    const confirmed = await confirmReturn({ shopOrderId: post.orderId, ...saysOpen }, options, bed.pair.client, anonymous())
    expect(confirmed.result.action).toBe(PaymentActions.FAILED)
    expect(confirmed.open).toBeUndefined()

    const unknown = `order-none-${Math.random().toString(16).slice(2)}`
    const early = resigned(post.rawBody, (form) => {
      form.set("shop_orderid", unknown)
      form.set("status", "open")
    })
    expect(await confirmReturn({ shopOrderId: unknown, ...early }, options, bed.pair.client, anonymous())).toMatchObject({
      open: true,
      result: { action: PaymentActions.NOT_SUPPORTED },
    })
  })
})
