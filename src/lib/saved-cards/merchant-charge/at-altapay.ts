/**
 * A merchant-started charge on an agreement, at AltaPay only (no Medusa): never made twice, through
 * the money door (lib/money-door). The charges of the agreement that name the payment collection are
 * looked up first (a retry, or a charge whose answer was lost), with those of any other agreement an
 * open attempt of the collection was sent on (a retry with another of the customer's cards), and one
 * that took exactly this amount is used instead of charging; an attempt AltaPay does not show yet blocks another for twice
 * the answer timeout. The caller holds the order's lock (charge.ts), so the look-up and the charge
 * are one decision.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { DECLINED_STATUSES, minorToDecimal, RELEASED_STATUSES, statusIn, type AltaPayClient, type GatewayTransaction, type OrderLine, type UnscheduledType } from "../../../altapay"
import { toMedusaError } from "../../medusa-mapping/errors"
import { collectionSubject, type Attempt } from "../../money-door/attempts"
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
  /** The agreement set-up's shop_orderid: a retry on another card finds this one's charges by it (older attempts lack it). */
  agreement_order_id?: string
  capture: boolean
  unscheduled_type: Exclude<UnscheduledType, "charge">
}

/** A charge of the collection at AltaPay, with the agreement it is on. */
export interface FoundCharge {
  transaction: GatewayTransaction
  /** The agreement charged: the one asked for, or, for an earlier attempt found, the card it was sent on. */
  agreementId: string
  /** The agreement set-up's shop_orderid, which its charges keep. */
  agreementOrderId: string
}

export interface ChargedAtAltaPay extends FoundCharge {
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
  const charges = new CollectionCharges(client, { agreementId: input.agreementId, agreementOrderId }, input, logger)
  const done = (hit: FoundCharge, found: boolean): ChargedAtAltaPay => ({ ...hit, reconciliationIdentifier, found })
  try {
    return await deps.door.move<ChargeRecord, ChargedAtAltaPay>({
      kind: "merchant-charge",
      subject: collectionSubject(input.paymentCollectionId),
      lockKey: chargeLockKey(input.orderId),
      attempt: { id: reconciliationIdentifier, amountMinor: input.amountMinor, currency: input.currency, key: input.paymentCollectionId },
      // The collection's charges at AltaPay decide: a retry, or a charge whose answer was lost, is used instead of charging.
      lookFirst: true,
      // The door shows every attempt it keeps on the collection here before it looks: the look then reads
      // the agreements they were sent on too (another of the customer's cards, tried first).
      recorded: (attempt) => {
        charges.note(attempt)
        return false
      },
      look: () => charges.look(),
      happened: (record, attempt) => charges.same(record, attempt) !== undefined,
      adopt: (attempt, record, found) => {
        const hit = charges.same(record, attempt)!
        if (found === "after a lost answer")
          logger?.warn(
            `AltaPay charge ${reconciliationIdentifier}: the answer was lost but AltaPay shows the charge (transaction ${hit.transaction.transactionId}); recorded once.`
          )
        if (hit.agreementId !== input.agreementId)
          logger?.warn(
            `AltaPay charge ${attempt.id}: payment collection ${input.paymentCollectionId} was already charged on saved card agreement ${hit.agreementId} (transaction ${hit.transaction.transactionId}); that charge is recorded, agreement ${input.agreementId} is not charged.`
          )
        return done(hit, found !== "after a lost answer")
      },
      prepare: (record) => {
        charges.refuseOther(record ?? new Map())
        // What the follow-up needs to record a charge whose answer never came (lib/follow-up/uncertain-money.ts),
        // and the agreement a retry on another card must look at (CollectionCharges.note).
        const detail: MerchantChargeDetail = {
          order_id: input.orderId,
          agreement_id: input.agreementId,
          agreement_order_id: agreementOrderId,
          capture: input.capture,
          unscheduled_type: input.unscheduledType,
        }
        return { detail, send: async () => done({ transaction: await send(), agreementId: input.agreementId, agreementOrderId }, false) }
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

/** AltaPay's record of the collection's live charges, per agreement looked at (agreement id → its charges). */
type ChargeRecord = Map<string, { agreementOrderId: string; live: GatewayTransaction[] }>

/**
 * The charges that name one payment collection, on the agreement charged now and on every agreement
 * an open attempt of the collection was sent on: the admin may retry with another of the customer's
 * cards, and a charge made on the first one must still be found (else both are charged). With no
 * open attempt only the agreement charged now is read.
 */
class CollectionCharges {
  /** Agreements of open attempts other than the current one: id → its shop_orderid when kept, and the attempt. */
  private readonly others = new Map<string, { agreementOrderId?: string; attemptId: string }>()

  constructor(
    private readonly client: AltaPayClient,
    private readonly current: { agreementId: string; agreementOrderId: string },
    private readonly expected: Pick<ChargeAtAltaPayInput, "paymentCollectionId" | "amountMinor" | "currency">,
    private readonly logger?: Pick<Logger, "error">
  ) {}

  note(attempt: Attempt): void {
    const detail = attempt.detail as Partial<MerchantChargeDetail> | undefined
    const agreementId = detail?.agreement_id
    if (!agreementId || agreementId === this.current.agreementId || this.others.has(agreementId)) return
    this.others.set(agreementId, { attemptId: attempt.id, ...(detail.agreement_order_id ? { agreementOrderId: detail.agreement_order_id } : {}) })
  }

  /** The collection's charges AltaPay may still take money on or took (not declined or released), per agreement. */
  async look(): Promise<ChargeRecord> {
    const record: ChargeRecord = new Map()
    record.set(this.current.agreementId, { agreementOrderId: this.current.agreementOrderId, live: await this.liveOn(this.current.agreementOrderId) })
    for (const [agreementId, other] of this.others) {
      try {
        // An attempt kept before agreement_order_id was: its agreement is read (one more call, on a retry only).
        const agreementOrderId = other.agreementOrderId ?? (await agreementOrderIdOf(this.client, agreementId))
        record.set(agreementId, { agreementOrderId, live: await this.liveOn(agreementOrderId) })
      } catch (error) {
        // The door refuses then (nothing sent, "try again in a moment"): that card may have been charged.
        const reason = error instanceof Error ? error.message : String(error)
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `earlier charge ${other.attemptId} was sent on another saved card (agreement ${agreementId}) and AltaPay could not show that card's charges: ${reason}`
        )
      }
    }
    return record
  }

  /** A charge that took exactly the attempt's amount on the attempt's agreement: the one to use instead of charging. */
  same(record: ChargeRecord, attempt: Attempt): FoundCharge | undefined {
    const agreementId = (attempt.detail as Partial<MerchantChargeDetail> | undefined)?.agreement_id ?? this.current.agreementId
    const charges = record.get(agreementId)
    // Never "not made" unread: the door would forget the attempt and charge this card too.
    if (!charges)
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `AltaPay charge: earlier charge ${attempt.id} on agreement ${agreementId} was not checked at AltaPay; nothing was charged.`
      )
    const { currency } = this.expected
    const transaction = charges.live.find((t) => chargeTookMoney(t) && t.reservedAmount?.minor === attempt.amountMinor && t.reservedAmount?.currency?.toUpperCase() === currency)
    return transaction ? { transaction, agreementId, agreementOrderId: charges.agreementOrderId } : undefined
  }

  /** Any other charge of the collection AltaPay may still take money on (another amount, or still pending), on any card looked at, refuses. */
  refuseOther(record: ChargeRecord): void {
    const { paymentCollectionId, amountMinor, currency } = this.expected
    const [agreementId, other] = [...record].flatMap(([id, { live }]) => live.map((t) => [id, t] as const))[0] ?? []
    if (!other) return
    const held = other.reservedAmount ? `${other.reservedAmount.decimal} ${other.reservedAmount.currency ?? ""}`.trim() : "an amount AltaPay does not state"
    const where = agreementId === this.current.agreementId ? "" : ` on another saved card (agreement ${agreementId})`
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `AltaPay already has charge ${other.transactionId} (${other.transactionStatus ?? "unknown"}, ${held})${where} for payment collection ${paymentCollectionId}, which is for ${minorToDecimal(amountMinor, currency)} ${currency}: settle that charge in AltaPay first; nothing was charged.`
    )
  }

  private async liveOn(agreementOrderId: string): Promise<GatewayTransaction[]> {
    let transactions: GatewayTransaction[]
    try {
      transactions = await this.client.gateway.payments({ shopOrderId: agreementOrderId })
    } catch (error) {
      throw toMedusaError(error, "agreement charge check", this.logger)
    }
    return transactions.filter((t) => isChargeFor(t, this.expected.paymentCollectionId) && !statusIn(t.transactionStatus, [...DECLINED_STATUSES, ...RELEASED_STATUSES]))
  }
}
