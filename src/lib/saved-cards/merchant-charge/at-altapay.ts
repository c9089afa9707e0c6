/**
 * A merchant-started charge on an agreement, at AltaPay only (no Medusa): never made twice, through
 * the money door (lib/money-door). The charges of the agreement that name the payment collection are
 * looked up first (a retry, or a charge whose answer was lost), and one that took exactly this
 * amount is used instead of charging; an attempt AltaPay does not show yet blocks another for twice
 * the answer timeout. The caller holds the order's lock (charge.ts), so the look-up and the charge
 * are one decision.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { DECLINED_STATUSES, minorToDecimal, RELEASED_STATUSES, statusIn, type AltaPayClient, type GatewayTransaction, type OrderLine, type UnscheduledType } from "../../../altapay"
import { toMedusaError } from "../../medusa-mapping/errors"
import { collectionSubject } from "../../money-door/attempts"
import type { MoneyDoor } from "../../money-door/door"
import { CHARGE_INFO, chargeLockKey, chargeReconciliationId, chargeTookMoney, isChargeFor } from "./context"

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

/** A merchant charge attempt's detail, as the money door keeps it. */
export interface MerchantChargeDetail extends Record<string, unknown> {
  order_id: string
  agreement_id: string
  capture: boolean
  unscheduled_type: Exclude<UnscheduledType, "charge">
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
  /** The money door (lib/money-door), on Medusa's cache and locks as the provider has them. */
  door: MoneyDoor
  logger?: Pick<Logger, "error" | "warn">
}

export async function chargeAtAltaPay(deps: ChargeAtAltaPayDeps, input: ChargeAtAltaPayInput): Promise<ChargedAtAltaPay> {
  const { client, logger } = deps
  const reconciliationIdentifier = chargeReconciliationId(input.paymentCollectionId, input.amountMinor)
  const agreementOrderId = await agreementOrderIdOf(client, input.agreementId, logger)
  const charges = new ChargesOf(client, agreementOrderId, input, logger)
  const done = (transaction: GatewayTransaction, found: boolean): ChargedAtAltaPay => ({ transaction, agreementOrderId, reconciliationIdentifier, found })
  try {
    return await deps.door.move<GatewayTransaction[], ChargedAtAltaPay>({
      kind: "merchant-charge",
      subject: collectionSubject(input.paymentCollectionId),
      lockKey: chargeLockKey(input.orderId),
      attempt: { id: reconciliationIdentifier, amountMinor: input.amountMinor, currency: input.currency, key: input.paymentCollectionId },
      // The collection's charges at AltaPay decide: a retry, or a charge whose answer was lost, is used instead of charging.
      lookFirst: true,
      recorded: () => false,
      look: () => charges.live(),
      happened: (record, attempt) => charges.same(record, attempt.amountMinor) !== undefined,
      adopt: (attempt, record, found) => {
        const transaction = charges.same(record, attempt.amountMinor)!
        if (found === "after a lost answer")
          logger?.warn(`AltaPay charge ${reconciliationIdentifier}: the answer was lost but AltaPay shows the charge (transaction ${transaction.transactionId}); recorded once.`)
        return done(transaction, found !== "after a lost answer")
      },
      prepare: (record) => {
        charges.refuseOther(record ?? [])
        // What the follow-up needs to record a charge whose answer never came (lib/follow-up/uncertain-money.ts).
        const detail: MerchantChargeDetail = { order_id: input.orderId, agreement_id: input.agreementId, capture: input.capture, unscheduled_type: input.unscheduledType }
        return { detail, send: async () => done(await send(), false) }
      },
    })
  } catch (error) {
    throw toMedusaError(error, "agreement charge", logger)
  }

  async function send(): Promise<GatewayTransaction> {
    const request = {
      agreementId: input.agreementId,
      amountMinor: input.amountMinor,
      currency: input.currency,
      unscheduledType: input.unscheduledType,
      reconciliationIdentifier,
      orderLines: input.orderLines,
      transactionInfo: { [CHARGE_INFO.collection]: input.paymentCollectionId, [CHARGE_INFO.order]: input.orderId },
    }
    const result = input.capture ? await client.agreements.chargeSubscription(request) : await client.agreements.reserveSubscriptionCharge(request)
    if (result.outcome === "redirect") {
      // Merchant-initiated charges never ask for it; an issuer that does needs the customer.
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `AltaPay asks for the cardholder's 3-D Secure authentication: the merchant cannot charge agreement ${input.agreementId} alone.`
      )
    }
    return result.transaction
  }
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

  /** The collection's charges AltaPay may still take money on or took (not declined or released). */
  async live(): Promise<GatewayTransaction[]> {
    let transactions: GatewayTransaction[]
    try {
      transactions = await this.client.gateway.payments({ shopOrderId: this.agreementOrderId })
    } catch (error) {
      throw toMedusaError(error, "agreement charge check", this.logger)
    }
    return transactions.filter((t) => isChargeFor(t, this.expected.paymentCollectionId) && !statusIn(t.transactionStatus, [...DECLINED_STATUSES, ...RELEASED_STATUSES]))
  }

  /** A charge that took exactly this amount: the one to use instead of charging. */
  same(live: GatewayTransaction[], amountMinor: number): GatewayTransaction | undefined {
    const { currency } = this.expected
    return live.find((t) => chargeTookMoney(t) && t.reservedAmount?.minor === amountMinor && t.reservedAmount?.currency?.toUpperCase() === currency)
  }

  /** Any other charge of the collection AltaPay may still take money on (another amount, or still pending) refuses. */
  refuseOther(live: GatewayTransaction[]): void {
    const { paymentCollectionId, amountMinor, currency } = this.expected
    const other = live[0]
    if (!other) return
    const held = other.reservedAmount ? `${other.reservedAmount.decimal} ${other.reservedAmount.currency ?? ""}`.trim() : "an amount AltaPay does not state"
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `AltaPay already has charge ${other.transactionId} (${other.transactionStatus ?? "unknown"}, ${held}) for payment collection ${paymentCollectionId}, which is for ${minorToDecimal(amountMinor, currency)} ${currency}: settle that charge in AltaPay first; nothing was charged.`
    )
  }
}
