/**
 * The storefront landing page a customer's return ends on: the successUrl / failureUrl options with
 * their placeholders filled. The plugin answers AltaPay's return post with a 303 to it, and AltaPay
 * sends the browser there, so it must be an absolute URL (a relative Location would resolve against
 * AltaPay's site, if at all).
 *
 *   {cart_id}     the cart being paid (payment session -> payment collection -> cart); signed posts only
 *   {session_id}  the Medusa payment session id (AltaPay's shop_orderid)
 *   {order_id}    the order the cart became; empty when there is none, and for unsigned requests
 *   {outcome}     paid | declined | review | unconfirmed
 *                 (review: AltaPay reports the payment open, e.g. Klarna's manual review; the order
 *                 follows when AltaPay settles it)
 *   {message}     the message AltaPay requires the customer to see (`error_message` when
 *                 `cardholder_message_must_be_shown` is true, always for Klarna); empty unless
 *                 AltaPay's verified signed post carried one. Plain text: escape it where it is shown.
 */
export type ReturnOutcome = "paid" | "declined" | "review" | "unconfirmed"

/** The longest {message} put in a landing URL (AltaPay's messages are short; a URL must stay one). */
export const MAX_LANDING_MESSAGE = 500

export interface LandingValues {
  session_id: string
  cart_id?: string
  order_id?: string
  outcome: ReturnOutcome
  message?: string
}

export function landingUrl(template: string, values: LandingValues): string {
  const filled = { ...values, message: values.message?.replace(/\s+/g, " ").trim().slice(0, MAX_LANDING_MESSAGE) }
  return template.replace(/\{(session_id|cart_id|order_id|outcome|message)\}/g, (_, name: keyof LandingValues) => encodeURIComponent(filled[name] ?? ""))
}
