/** The customer's return from AltaPay's payment page, as AltaPay posts it to the plugin (tests of the store's routes). */
import { shopOrderIdFor } from "../../src/lib/medusa-mapping/shop-order-id"

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
