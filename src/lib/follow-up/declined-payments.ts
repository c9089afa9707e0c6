/**
 * A payment AltaPay declined (or its app cancelled) that the session follow-up finds while Medusa
 * still has the session: its callback was lost, so the failed-payments subscriber never told the
 * merchant (lib/callbacks/failed-payments.ts). When an order waits on the payment (an order placed
 * while the payment was open at AltaPay, or a payment link's order), the merchant gets that same
 * notice, once, before the session is retired. A cart nobody ordered was left by its customer: no notice.
 */
import type { MedusaContainer, RemoteQueryFunction } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentActions } from "@medusajs/framework/utils"
import { DECLINED_STATUSES, statusIn, type GatewayTransaction } from "../../altapay"
import { tellOfFailedPayment, type FailedPayment } from "../callbacks/failed-payments"
import { orderOfCart } from "../medusa-mapping/medusa-session"
import type { AltaPayRegistration } from "../registrations/registrations"

/** Longer than any session is followed (a payment link's order: 30 days). */
const DECLINED_TOLD_TTL_SECONDS = 35 * 24 * 60 * 60

/** What the session follow-up knows of the session. */
export interface FollowedSession {
  id: string
  payment_collection?: { cart?: { id: string } | null; order?: { id: string } | null } | null
}

/** `failed` for a payment AltaPay declined, `canceled` for one its app cancelled; undefined for any other. */
export function failedAction(transaction: GatewayTransaction): FailedPayment["action"] | undefined {
  if (!statusIn(transaction.transactionStatus, DECLINED_STATUSES)) return undefined
  return statusIn(transaction.transactionStatus, ["epayment_cancelled"]) ? PaymentActions.CANCELED : PaymentActions.FAILED
}

/** Tells the merchant, once, of a declined payment an order waits on (tellOfFailedPayment's notice). */
export async function tellOfDeclinedPayment(
  container: MedusaContainer,
  registration: Pick<AltaPayRegistration, "providerId" | "store">,
  session: FollowedSession,
  transaction: GatewayTransaction
): Promise<void> {
  const action = failedAction(transaction)
  if (!action) return
  const key = `altapay:follow-up:declined-told:${session.id}`
  if (await registration.store.get<boolean>(key).catch(() => undefined)) return
  const collection = session.payment_collection
  const query = container.resolve<Pick<RemoteQueryFunction, "graph">>(ContainerRegistrationKeys.QUERY)
  const orderId = collection?.cart?.id ? await orderOfCart(query, collection.cart.id) : collection?.order?.id
  if (!orderId) return
  await tellOfFailedPayment(container, registration.store, { providerId: registration.providerId, sessionId: session.id, action })
  await registration.store.set(key, true, DECLINED_TOLD_TTL_SECONDS).catch(() => undefined)
}
