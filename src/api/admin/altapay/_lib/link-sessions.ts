/**
 * The Medusa payment session (and its AltaPay session) a payment link pays into.
 *
 * Cart: the storefront's own session workflow (server-side lines, reuse of a matching session),
 * acting for the cart's customer. Paying completes the cart as the webhook always does.
 * Order: the order's unpaid payment collection, or a new one for the amount still due (order
 * edits, draft orders); the AltaPay session carries the order's lines when it pays the whole
 * order, else one line for the amount due split like the order's net and tax.
 */
import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createPaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import { minorToDecimal } from "../../../../altapay"
import { collectionSubject, type AttemptBook } from "../../../../lib/money-door/attempts"
import { orderLinkLockKey } from "../../../../lib/medusa-mapping/stale-link-sessions"
import { dueCollection, dueOrderLines, loadOrderDue, refusedNewPayment, type DueSessionRow } from "../../../../lib/medusa-mapping/amount-due"
import { toMinorUnits } from "../../../../lib/medusa-mapping/amounts"
import { currenciesWithTerminal, type AltaPayOptions } from "../../../../lib/registrations/options"
import { provenSessionData } from "../../../../lib/payment-data/data"
import { serverKeys } from "../../../../lib/registrations/server-keys"
import { createAltaPaySessionForCartWorkflow } from "../../../../workflows/create-altapay-session-for-cart"
import type { Money } from "./payment-view"

export interface LinkSession {
  payment_collection_id: string
  payment_session_id: string
  altapay_session_id: string
  amount: Money
}

export interface LinkTarget {
  providerId: string
  options: AltaPayOptions
  /** The money door's record of attempts (a charge on the order's collection may be uncertain). */
  attempts: AttemptBook
}

type Amount = DueSessionRow["amount"]
type SessionRow = DueSessionRow

export async function sessionForCart(container: MedusaContainer, cartId: string, target: LinkTarget): Promise<LinkSession> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: carts } = await query.graph({ entity: "cart", fields: ["id", "customer_id"], filters: { id: cartId } })
  const cart = carts[0] as { id: string; customer_id?: string | null } | undefined
  if (!cart) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart ${cartId} was not found.`)
  const { result } = await createAltaPaySessionForCartWorkflow(container).run({
    input: {
      cart_id: cartId,
      // The merchant acts for the cart's customer, as the storefront would for a signed-in one.
      customer_id: cart.customer_id ?? undefined,
      provider_id: target.providerId,
      product_url_template: target.options.productUrlTemplate,
      supported_currencies: currenciesWithTerminal(target.options),
    },
  })
  const { data: sessions } = await query.graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "status", "amount", "currency_code", "payment_collection_id"],
    filters: { id: result.payment_session_id },
  })
  const session = sessions[0] as SessionRow | undefined
  if (!session) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Payment session ${result.payment_session_id} disappeared.`)
  if (session.status === "authorized") throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Cart ${cartId} is paid already (payment session ${session.id} is authorized).`)
  return linkSession(session, result.altapay_session_id)
}

export async function sessionForOrder(container: MedusaContainer, orderId: string, target: LinkTarget): Promise<LinkSession> {
  const locking = container.resolve<ILockingModule>(Modules.LOCKING)
  // Two people sending a link at once get the same session, not one each (a new one replaces the old).
  return locking.execute(orderLinkLockKey(orderId), () => orderSession(container, orderId, target), { timeout: 30 })
}

async function orderSession(container: MedusaContainer, orderId: string, target: LinkTarget): Promise<LinkSession> {
  const due = await loadOrderDue(container, orderId)
  const { order, name } = due
  const refusal = refusedNewPayment(due, "There is nothing to pay by link.")
  if (refusal) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, refusal)
  const currency = order.currency_code
  const collection = await dueCollection(container, due)
  // A charge of the collection on a saved card that Medusa has not recorded (the record step drops it): being made, or made.
  const [charge] = await target.attempts.list(collectionSubject(collection.id))
  if (charge) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `A charge of order ${name} on a saved card (${charge.id}) may have been made without Medusa recording it, or is being made. No link was created: charge the saved card again first (the plugin asks AltaPay for that charge and records it instead of charging again).`
    )
  }

  const amountMinor = toMinorUnits(collection.amount, currency)
  // Only sessions the provider provably wrote: a browser can write session data too.
  const keys = serverKeys(target.options, "payment-data-seal")
  const reusable = (collection.payment_sessions ?? []).find(
    (s): s is SessionRow => !!s && s.provider_id === target.providerId && s.status === "pending" && !!provenSessionData(s, keys) && toMinorUnits(s.amount, currency) === amountMinor
  )
  if (reusable) return linkSession({ ...reusable, payment_collection_id: collection.id }, provenSessionData(reusable, keys)!.altapay_session_id)

  const { result: created } = await createPaymentSessionsWorkflow(container).run({
    input: {
      payment_collection_id: collection.id,
      provider_id: target.providerId,
      customer_id: order.customer_id ?? undefined,
      context: { altapay: { order_lines: dueOrderLines(order, amountMinor, target.options) } },
    },
  })
  const altapaySessionId = (created.data as { altapay_session_id?: unknown } | undefined)?.altapay_session_id
  if (typeof altapaySessionId !== "string")
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "The AltaPay provider created a payment session without an AltaPay session id.")
  return linkSession(
    {
      id: created.id,
      provider_id: created.provider_id,
      status: created.status,
      amount: created.amount as Amount,
      currency_code: created.currency_code,
      payment_collection_id: collection.id,
    },
    altapaySessionId
  )
}

function linkSession(session: SessionRow, altapaySessionId: string): LinkSession {
  const currency = session.currency_code.toUpperCase()
  const minor = toMinorUnits(session.amount, currency)
  return {
    payment_collection_id: session.payment_collection_id,
    payment_session_id: session.id,
    altapay_session_id: altapaySessionId,
    amount: { minor, decimal: minorToDecimal(minor, currency), currency },
  }
}
