/**
 * A charge the merchant starts on a customer's saved card (an AltaPay agreement) for what an order
 * still waits to be paid: chargeSubscription (captured) or reserveSubscriptionCharge (reserved,
 * captured later through Medusa). Medusa's side: the card must be the order's customer's, in the
 * order's currency, on a registration with saved cards on; the amount is Medusa's pending difference
 * read now (its collection brought to it), and no payment of the order may be under way
 * (open-payments.ts). Decided and charged under the order's lock; AltaPay's side, never twice, is
 * at-altapay.ts (through the money door).
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { SavedCardRecord } from "../../../modules/altapay-saved-cards/types"
import type { UnscheduledType } from "../../../altapay"
import { dueCollection, dueOrderLines, loadOrderDue, refusedNewPayment } from "../../medusa-mapping/amount-due"
import { openPaymentOf } from "../../medusa-mapping/open-payments"
import { toMinorUnits } from "../../medusa-mapping/amounts"
import { altapayFromConfig } from "../../registrations/from-config"
import { moneyDoorFor } from "../../money-door/door"
import { savedCardById } from "../customer-cards"
import { registeredSavedCardsModule } from "../module"
import { chargeAtAltaPay } from "./at-altapay"
import { chargeLockKey, type MerchantChargeContext } from "./context"

/** Merchant-initiated kinds of an unscheduled charge: `charge` is the customer buying (and may need 3-D Secure). */
export const MERCHANT_UNSCHEDULED_TYPES = ["incremental", "resubmission", "delayedCharges", "reauthorisation", "noShow"] as const satisfies ReadonlyArray<
  Exclude<UnscheduledType, "charge">
>
export type MerchantUnscheduledType = (typeof MERCHANT_UNSCHEDULED_TYPES)[number]

export interface AgreementChargeRequest {
  order_id: string
  saved_card_id: string
  /** true: captured at once; false: reserved, captured through Medusa. Default: the registration's `autoCapture`. */
  capture?: boolean
  /** Default `incremental`: the difference of an order the customer already paid. */
  unscheduled_type?: MerchantUnscheduledType
}

/** A charge made now, or found at AltaPay, ready to be recorded in Medusa. */
export interface AgreementCharge {
  order_id: string
  provider_id: string
  payment_collection_id: string
  amount_minor: number
  currency: string
  captured: boolean
  reconciliation_identifier: string
  /** True when AltaPay already had it (a retry, or a lost answer): nothing was charged now. */
  found: boolean
  /** What the payment session recording it is created with. */
  context: MerchantChargeContext
}

export async function chargeOrderOnSavedCard(container: MedusaContainer, request: AgreementChargeRequest): Promise<AgreementCharge> {
  const card = await savedCardById(container, request.saved_card_id)
  const { options, client, scaleOut, providerId } = altapayFromConfig(container, card.provider_id)
  if (!options.savedCards.enabled) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Saved cards are not enabled on ${providerId}: set its option savedCards.enabled to charge saved cards.`)
  }
  const logger = container.resolve<Logger | undefined>(ContainerRegistrationKeys.LOGGER, { allowUnregistered: true })
  return scaleOut.paymentLock(chargeLockKey(request.order_id), async () => {
    const due = await loadOrderDue(container, request.order_id)
    const { order, name } = due
    const currency = order.currency_code.toUpperCase()
    const refusal =
      order.customer_id !== card.customer_id
        ? `Saved card ${card.id} is not the card of order ${name}'s customer.`
        : card.currency.toUpperCase() !== currency
          ? `Saved card ${card.id} was saved for ${card.currency.toUpperCase()}; order ${name} is in ${currency}.`
          : refusedNewPayment(due, "There is nothing to charge.")
    if (refusal) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, refusal)
    const open = await openPaymentOf(container, due)
    if (open) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Order ${name} has a payment under way: ${open}. Nothing was charged: wait until it is paid or lapses, then charge what is still outstanding.`
      )
    }

    const collection = await dueCollection(container, due)
    const amountMinor = toMinorUnits(collection.amount, currency)
    const orderLines = dueOrderLines(order, amountMinor, options)
    const charged = await chargeAtAltaPay(
      { client, door: moneyDoorFor(scaleOut, options.headersTimeoutMs, logger), logger },
      {
        agreementId: card.agreement_id,
        paymentCollectionId: collection.id,
        orderId: order.id,
        amountMinor,
        currency,
        capture: request.capture ?? options.autoCapture,
        unscheduledType: request.unscheduled_type ?? "incremental",
        orderLines,
      }
    )
    // An earlier charge on another of the customer's cards may be the one found (at-altapay.ts): the session names that card.
    const chargedCard = charged.agreementId === card.agreement_id ? card : await cardOfAgreement(container, providerId, charged.agreementId, charged.transaction.transactionId)
    return {
      order_id: order.id,
      provider_id: providerId,
      payment_collection_id: collection.id,
      amount_minor: amountMinor,
      currency,
      // What AltaPay did, whatever was asked: a charge found again may have been made either way.
      captured: (charged.transaction.capturedAmount?.minor ?? 0) > 0,
      reconciliation_identifier: charged.reconciliationIdentifier,
      found: charged.found,
      context: {
        transaction_id: charged.transaction.transactionId,
        payment_collection_id: collection.id,
        saved_card_id: chargedCard.id,
        agreement_id: chargedCard.agreement_id,
        agreement_order_id: charged.agreementOrderId,
        customer_id: chargedCard.customer_id,
        order_lines: orderLines,
      },
    }
  })
}

/** The saved card (deleted ones too) of the agreement an earlier charge was made on. */
async function cardOfAgreement(container: MedusaContainer, providerId: string, agreementId: string, transactionId: string): Promise<SavedCardRecord> {
  const [card] = (await registeredSavedCardsModule(container)?.listAltapaySavedCards({ provider_id: providerId, agreement_id: agreementId }, { take: 1, withDeleted: true })) ?? []
  if (!card) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `AltaPay charge ${transactionId} was made earlier on agreement ${agreementId}, which no saved card in Medusa names: nothing was charged now; record or refund that charge in AltaPay.`
    )
  }
  return card as SavedCardRecord
}
