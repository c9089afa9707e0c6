/** The customer's return from AltaPay's payment page, as AltaPay posts it to the plugin (tests of the store's routes). */
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"
import type { Sandbox } from "../../src/sandbox"

/** AltaPay's post of the customer's return (no callback) for a payment session, to the plugin's return endpoint; not followed. */
export async function postCustomerReturn(medusaUrl: string, paymentSessionId: string): Promise<Response> {
  const returned = await fetch(`${medusaUrl}/altapay/return/altapay/success`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ shop_orderid: shopOrderIdFor(paymentSessionId) }).toString(),
    redirect: "manual",
  })
  await returned.text()
  return returned
}

/** AltaPay's signed post of the customer's return for a sandbox payment; not followed: the landing page's query, if it redirects. */
export async function postSignedCustomerReturn(medusaUrl: string, sandbox: Sandbox, paymentId: string): Promise<{ status: number; landing: URLSearchParams | undefined }> {
  const { rawBody, headers } = sandbox.callbackFor(paymentId)
  const answer = await fetch(`${medusaUrl}/altapay/return/altapay/success`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "altapay-signature": headers["altapay-signature"] },
    body: rawBody,
    redirect: "manual",
  })
  await answer.text()
  const location = answer.headers.get("location")
  return { status: answer.status, landing: location ? new URL(location).searchParams : undefined }
}
