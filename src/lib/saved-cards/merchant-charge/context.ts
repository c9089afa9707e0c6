/**
 * What a merchant-started charge on a saved card is known by, at AltaPay and in Medusa. The charge
 * keeps the agreement set-up's shop_orderid (not one of ours, api-php reservesubscription.xml), so
 * it names its Medusa payment collection in `transaction_info`, which AltaPay keeps in the
 * transaction's PaymentInfos: the charge is found again by that, after a lost answer too. The
 * payment session that records it gets `context.altapay.merchant_charge` (a browser cannot set a
 * session's context: Medusa's store route builds it), which the provider seals and later checks
 * against AltaPay's record.
 */
import { z } from "zod"
import { AUTHORIZED_STATUSES, CAPTURED_STATUSES, REFUNDED_STATUSES, statusIn, type GatewayTransaction } from "../../../altapay"
import { orderLineSchema } from "../../payment-data/data"

/** AltaPay's authType of a charge on an agreement. */
export const CHARGE_AUTH_TYPE = "subscription_payment"

/** The `transaction_info[...]` names a merchant-started charge carries. */
export const CHARGE_INFO = { collection: "medusa_payment_collection_id", order: "medusa_order_id" } as const

export const merchantChargeContextSchema = z.object({
  transaction_id: z.string().min(1),
  payment_collection_id: z.string().min(1),
  saved_card_id: z.string().min(1),
  agreement_id: z.string().min(1),
  /** The agreement set-up's shop_orderid, which its charges keep. */
  agreement_order_id: z.string().min(1),
  customer_id: z.string().min(1),
  /** The lines the charge was sent with: later captures and refunds of it use them. */
  order_lines: z.array(orderLineSchema).optional(),
})
export type MerchantChargeContext = z.infer<typeof merchantChargeContextSchema>

/** One charge decision per order at a time, on every server sharing Medusa's locking module. */
export const chargeLockKey = (orderId: string) => `altapay:merchant-charge:${orderId}`

/** The context a payment session for a merchant-started charge is created with. */
export function merchantChargeSessionContext(charge: MerchantChargeContext): { altapay: { merchant_charge: MerchantChargeContext } } {
  return { altapay: { merchant_charge: charge } }
}

/** `context.altapay.merchant_charge` as given (unchecked): set only for merchant-started charges. */
export function merchantChargeIn(context: unknown): unknown {
  return (context as { altapay?: { merchant_charge?: unknown } } | undefined)?.altapay?.merchant_charge
}

/**
 * The charge's reconciliation identifier: one per collection and amount, so a retry sends the same
 * one, and a collection whose amount Medusa changed since (another order edit) is another charge.
 */
export function chargeReconciliationId(paymentCollectionId: string, amountMinor: number): string {
  return `medusa-charge-${paymentCollectionId}-${amountMinor}`.slice(0, 100)
}

export function paymentInfo(transaction: GatewayTransaction, name: string): string | undefined {
  return transaction.paymentInfos.find((info) => info.name === name)?.value
}

/** A charge on an agreement that names this payment collection. */
export function isChargeFor(transaction: GatewayTransaction, paymentCollectionId: string): boolean {
  return transaction.authType === CHARGE_AUTH_TYPE && paymentInfo(transaction, CHARGE_INFO.collection) === paymentCollectionId
}

/** Money AltaPay holds or took on it (reserved, captured, refunded later): not a decline or a release. */
export function chargeTookMoney(transaction: GatewayTransaction): boolean {
  return statusIn(transaction.transactionStatus, [...AUTHORIZED_STATUSES, ...CAPTURED_STATUSES, ...REFUNDED_STATUSES])
}
