/**
 * A merchant-started charge on an agreement, at AltaPay only (no Medusa): never made twice. The
 * charges of the agreement that name the payment collection are looked up first (a retry, or a
 * charge whose answer was lost), and one that took exactly this amount is used instead of charging;
 * after a lost answer AltaPay is asked again, and an attempt it does not show yet blocks another
 * for twice the answer timeout, as refunds do (src/providers/altapay/uncertain-refunds.ts). The
 * caller holds the order's lock (charge.ts), so the look-up and the charge are one decision.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import {
  AltaPayError,
  DECLINED_STATUSES,
  minorToDecimal,
  RELEASED_STATUSES,
  statusIn,
  type AltaPayClient,
  type GatewayTransaction,
  type OrderLine,
  type UnscheduledType,
} from "../../../altapay"
import { toMedusaError } from "../../medusa-mapping/errors"
import type { SharedStore } from "../../scale-out/shared-state"
import { CHARGE_INFO, chargeReconciliationId, chargeTookMoney, isChargeFor } from "./context"

export interface ChargeAtAltaPayInput {
  agreementId: string
  paymentCollectionId: string
  orderId: string
  amountMinor: number
  /** ISO 4217, upper case. */
  currency: string
  /** true: chargeSubscription (captured); false: reserveSubscriptionCharge (reserved). */
  capture: boolean
  unscheduledType: Exclude<UnscheduledType, "charge">
  orderLines: OrderLine[]
}

export interface ChargedAtAltaPay {
  transaction: GatewayTransaction
  /** The agreement set-up's shop_orderid, which its charges keep. */
  agreementOrderId: string
  reconciliationIdentifier: string
  /** True when AltaPay already had the charge: nothing was charged now. */
  found: boolean
}

export interface ChargeAtAltaPayDeps {
  client: AltaPayClient
  /** Where attempts with a lost answer are remembered: Medusa's cache module, shared by every server. */
  store: SharedStore
  headersTimeoutMs: number
  logger?: Pick<Logger, "error" | "warn">
}

export async function chargeAtAltaPay(deps: ChargeAtAltaPayDeps, input: ChargeAtAltaPayInput): Promise<ChargedAtAltaPay> {
  const { client, logger } = deps
  const reconciliationIdentifier = chargeReconciliationId(input.paymentCollectionId, input.amountMinor)
  const agreementOrderId = await agreementOrderIdOf(client, input.agreementId, logger)
  const charges = new ChargesOf(client, agreementOrderId, input, logger)
  const done = (transaction: GatewayTransaction, found: boolean): ChargedAtAltaPay => ({ transaction, agreementOrderId, reconciliationIdentifier, found })

  const existing = await charges.decide()
  if (existing) return done(existing, true)
  const uncertain = new UncertainCharges(deps.store, deps.headersTimeoutMs)
  await uncertain.refuseWhileOpen(input.paymentCollectionId)

  const request = {
    agreementId: input.agreementId,
    amountMinor: input.amountMinor,
    currency: input.currency,
    unscheduledType: input.unscheduledType,
    reconciliationIdentifier,
    orderLines: input.orderLines,
    transactionInfo: { [CHARGE_INFO.collection]: input.paymentCollectionId, [CHARGE_INFO.order]: input.orderId },
  }
  let result
  try {
    result = input.capture ? await client.agreements.chargeSubscription(request) : await client.agreements.reserveSubscriptionCharge(request)
  } catch (error) {
    if (!(error instanceof AltaPayError && error.mayHaveReachedAltaPay)) throw toMedusaError(error, "agreement charge", logger)
    const after = await charges.decide().catch(() => undefined)
    if (after) {
      logger?.warn(`AltaPay charge ${reconciliationIdentifier}: the answer was lost but AltaPay shows the charge (transaction ${after.transactionId}); recorded once.`)
      return done(after, false)
    }
    await uncertain.remember(input.paymentCollectionId)
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `AltaPay charge ${reconciliationIdentifier}: no answer from AltaPay, and AltaPay shows no such charge yet. Trying again is safe: the plugin checks AltaPay for this charge before sending another.`
    )
  }
  if (result.outcome === "redirect") {
    // Merchant-initiated charges never ask for it; an issuer that does needs the customer.
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `AltaPay asks for the cardholder's 3-D Secure authentication: the merchant cannot charge agreement ${input.agreementId} alone.`
    )
  }
  return done(result.transaction, false)
}

/** The agreement set-up's shop_orderid, which its charges keep: what AltaPay finds them by. */
async function agreementOrderIdOf(client: AltaPayClient, agreementId: string, logger?: Pick<Logger, "error">): Promise<string> {
  let setUp: GatewayTransaction | undefined
  try {
    setUp = (await client.gateway.payments({ transactionId: agreementId })).find((t) => t.transactionId === agreementId)
  } catch (error) {
    throw toMedusaError(error, "agreement look-up", logger)
  }
  if (!setUp?.shopOrderId) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `AltaPay has no agreement ${agreementId}: the saved card cannot be charged.`)
  return setUp.shopOrderId
}

/** The charges on one agreement that name one payment collection, as AltaPay has them now. */
class ChargesOf {
  constructor(
    private readonly client: AltaPayClient,
    private readonly agreementOrderId: string,
    private readonly expected: Pick<ChargeAtAltaPayInput, "paymentCollectionId" | "amountMinor" | "currency">,
    private readonly logger?: Pick<Logger, "error">
  ) {}

  /**
   * The charge to use instead of charging: one that took exactly this amount. Any other charge of
   * the collection AltaPay may still take money on (another amount, or still pending) refuses.
   */
  async decide(): Promise<GatewayTransaction | undefined> {
    const { paymentCollectionId, amountMinor, currency } = this.expected
    let transactions: GatewayTransaction[]
    try {
      transactions = await this.client.gateway.payments({ shopOrderId: this.agreementOrderId })
    } catch (error) {
      throw toMedusaError(error, "agreement charge check", this.logger)
    }
    const live = transactions.filter((t) => isChargeFor(t, paymentCollectionId) && !statusIn(t.transactionStatus, [...DECLINED_STATUSES, ...RELEASED_STATUSES]))
    const same = live.find((t) => chargeTookMoney(t) && t.reservedAmount?.minor === amountMinor && t.reservedAmount?.currency?.toUpperCase() === currency)
    if (same) return same
    const other = live[0]
    if (!other) return undefined
    const held = other.reservedAmount ? `${other.reservedAmount.decimal} ${other.reservedAmount.currency ?? ""}`.trim() : "an amount AltaPay does not state"
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `AltaPay already has charge ${other.transactionId} (${other.transactionStatus ?? "unknown"}, ${held}) for payment collection ${paymentCollectionId}, which is for ${minorToDecimal(amountMinor, currency)} ${currency}: settle that charge in AltaPay first; nothing was charged.`
    )
  }
}

/** Charges whose answer was lost and which AltaPay did not show right after. */
class UncertainCharges {
  constructor(
    private readonly store: SharedStore,
    private readonly headersTimeoutMs: number
  ) {}

  async refuseWhileOpen(collectionId: string): Promise<void> {
    const at = await this.store.get<number>(key(collectionId))
    if (typeof at !== "number") return
    // AltaPay may still be working on it: charging now could charge twice.
    const waitMs = at + 2 * this.headersTimeoutMs - Date.now()
    if (waitMs <= 0) return this.store.delete(key(collectionId))
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `AltaPay: an earlier charge for payment collection ${collectionId} got no answer and AltaPay does not show it yet, so nothing was sent. Try again in ${Math.ceil(waitMs / 1000)} s.`
    )
  }

  remember(collectionId: string): Promise<void> {
    return this.store.set(key(collectionId), Date.now(), 24 * 60 * 60)
  }
}

const key = (collectionId: string) => `altapay:uncertain-charge:${collectionId}`
