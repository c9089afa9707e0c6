/**
 * What the provider keeps in Medusa's payment session / payment `data`: only what later hooks need
 * and what a merchant wants to see. Never a token, a password or a callback secret.
 *
 * A browser writes session data too (Medusa stores the `data` of POST
 * /store/payment-collections/:id/payment-sessions before it calls the provider, and merges ours
 * over it afterwards). So everything the provider writes is sealed: an HMAC-SHA256 over a
 * canonical encoding of the fields it owns, with a key only the store's servers can derive
 * (../registrations/server-keys.ts). Reading keeps only those fields, and only a seal that verifies makes them
 * trusted.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { GOODS_TYPES, type OrderLine } from "../../altapay"
import { namesSession } from "../medusa-mapping/shop-order-id"
import type { ServerKeys } from "../registrations/server-keys"
import { canonicalJson, CODE_UNIT_ORDER, inOrder, STORED_ORDER } from "./canonical-json"
import { fingerprintOf, keepSealedText, readSeal, sealOf, verifies } from "./seal-format"

export { sealedJson } from "./seal-format"

/**
 * z.object with its fields in the seal's order (canonicalJson's STORED_ORDER), so that what zod
 * parses out is already in the order the seal encodes. The fields are written in the order that reads best.
 */
function canonicalObject<T extends z.ZodRawShape>(shape: T) {
  return z.object(Object.fromEntries(inOrder(Object.keys(shape), STORED_ORDER).map((key) => [key, shape[key]])) as T)
}

export const orderLineSchema = canonicalObject({
  description: z.string().min(1),
  itemId: z.string().min(1),
  quantity: z.number().positive(),
  unitPriceMinor: z.number().int(),
  taxAmountMinor: z.number().int(),
  taxPercent: z.number().min(0),
  goodsType: z.enum(GOODS_TYPES).optional(),
  discountPercent: z.number().optional(),
  unitCode: z.string().optional(),
  imageUrl: z.string().optional(),
  productUrl: z.string().optional(),
}) satisfies z.ZodType<OrderLine>

/** Units of an order's items (or shipping methods) a capture or refund is for. */
const itemQuantitiesSchema = z.array(canonicalObject({ line_item_id: z.string(), quantity: z.number().int().positive() }))

/** A return fee's line (AltaPay's "Refund a Klarna payment"): positive, sent as a `handling` line AltaPay deducts. */
export const returnFeeSchema = orderLineSchema.omit({ goodsType: true }).extend({ unitPriceMinor: z.number().int().positive(), taxAmountMinor: z.number().int().nonnegative() })

const refundRecordSchema = canonicalObject({
  /** Medusa's refund id (the idempotency key), when the refund came through Medusa. */
  refund_id: z.string().nullable(),
  reconciliation_identifier: z.string(),
  amount_minor: z.number().int(),
  /** Medusa's exact refund amount (major units, e.g. "10.005"): later refunds round their running total from it. */
  medusa_amount: z.string().optional(),
  /**
   * succeeded: money returned; open: AltaPay answered Open and has not finished (followed up by the
   * open-results job); failed: AltaPay never completed it (`failure_reason` says why).
   */
  status: z.enum(["succeeded", "open", "failed"]),
  failure_reason: z.string().optional(),
  /** When an Open refund was settled (succeeded or failed). */
  settled_at: z.string().optional(),
  created_at: z.string(),
  order_lines: z.array(orderLineSchema).optional(),
  /** Order items this refund returned money for (item-level refunds), to track refundable quantities. */
  items: itemQuantitiesSchema.optional(),
  note: z.string().optional(),
  /** A return fee the shop kept (Klarna): sent after `order_lines`, deducted by AltaPay; `amount_minor` is the goods less it. */
  return_fee: returnFeeSchema.optional(),
})
export type RefundRecord = z.infer<typeof refundRecordSchema>

export const pendingRefundSchema = canonicalObject({
  amount_minor: z.number().int().positive(),
  order_lines: z.array(orderLineSchema).min(1),
  items: itemQuantitiesSchema.optional(),
  note: z.string().optional(),
  /** A return fee to keep: `amount_minor` is `order_lines` less it. Optional: older seals stay valid. */
  return_fee: returnFeeSchema.optional(),
  requested_at: z.string(),
})
export type PendingRefund = z.infer<typeof pendingRefundSchema>

/** AltaPay's trackingInfo[] of a capture (from Medusa's fulfillment labels). */
export const trackingInfoSchema = canonicalObject({
  trackingId: z.string().optional(),
  companyName: z.string().optional(),
  method: z.string().optional(),
  trackingNumber: z.string().optional(),
  trackingUri: z.string().optional(),
  type: z.string().optional(),
})
export type TrackingInfo = z.infer<typeof trackingInfoSchema>

/**
 * Lines for the next capture of exactly `amount_minor`, written by an item capture (the admin's
 * "Capture items", or a fulfillment) just before it runs Medusa's capture workflow: Medusa passes
 * the provider only an amount.
 */
export const pendingCaptureSchema = canonicalObject({
  amount_minor: z.number().int().positive(),
  order_lines: z.array(orderLineSchema).min(1),
  /** Order items (and shipping methods) and the units captured. */
  items: itemQuantitiesSchema,
  /** The Medusa fulfillment this capture is for: one capture per fulfillment, ever. */
  fulfillment_id: z.string().optional(),
  tracking_info: z.array(trackingInfoSchema).optional(),
  requested_at: z.string(),
})
export type PendingCapture = z.infer<typeof pendingCaptureSchema>

const captureRecordSchema = canonicalObject({
  capture_id: z.string().nullable(),
  reconciliation_identifier: z.string(),
  amount_minor: z.number().int(),
  /** The lines sent (absent for captures recorded before lines were kept). */
  order_lines: z.array(orderLineSchema).optional(),
  /** Order items (and shipping methods) this capture took, by units: what item captures count as captured. */
  items: itemQuantitiesSchema.optional(),
  fulfillment_id: z.string().optional(),
  /** Absent: captured. open: AltaPay answered Open and has not finished; failed: it never did. */
  status: z.enum(["open", "failed"]).optional(),
  failure_reason: z.string().optional(),
  settled_at: z.string().optional(),
  created_at: z.string(),
})
export type CaptureRecord = z.infer<typeof captureRecordSchema>

/** A chargeback event AltaPay notified (status ChargebackEvent): recorded once per `key`. */
export const chargebackRecordSchema = canonicalObject({
  key: z.string().min(1),
  /** As AltaPay wrote it. */
  date: z.string(),
  type: z.string(),
  reason_code: z.string().nullable(),
  reason: z.string().nullable(),
  amount_minor: z.number().int(),
  currency: z.string().length(3),
  acquirer_transaction_id: z.string().nullable(),
  /** When this store recorded it. */
  received_at: z.string(),
})
export type ChargebackRecord = z.infer<typeof chargebackRecordSchema>

/**
 * A payment on an AltaPay agreement (saved cards, issue 32). `setup`: the customer saves the card
 * while paying (the hosted page sets the agreement up and reserves the order); `saved_card`: the
 * customer pays with a saved card (reserveSubscriptionCharge at authorization); `merchant_charge`:
 * the admin charged the agreement already (its transaction is only verified here).
 */
export const agreementPaymentSchema = canonicalObject({
  mode: z.enum(["setup", "saved_card", "merchant_charge"]),
  /** The Medusa customer the card is (to be) saved for. */
  customer_id: z.string().min(1),
  /** The plugin's saved-card row (altapay_saved_card.id); null while setting up. */
  saved_card_id: z.string().nullable(),
  /** AltaPay's agreement id (the set-up transaction's id); null while setting up. */
  agreement_id: z.string().nullable(),
  /** The agreement's set-up shop_orderid: its charges keep it (api-php reservesubscription.xml). */
  agreement_order_id: z.string().nullable(),
  /** The Medusa payment collection a merchant-started charge pays (transaction_info names it too). */
  payment_collection_id: z.string().nullish(),
})
export type AgreementPayment = z.infer<typeof agreementPaymentSchema>

/**
 * AltaPay's fraud recommendation and AVS result at authorization, and what the registration's
 * `fraud` policy made of them (lib/fraud/policy.ts). `hold`: nothing is captured until a merchant
 * approves it (`approved_at`).
 */
export const fraudRecordSchema = canonicalObject({
  recommendation: z.string().nullable(),
  score: z.string().nullable(),
  explanation: z.string().nullable(),
  avs_code: z.string().nullable(),
  avs_text: z.string().nullable(),
  decision: z.enum(["accept", "hold", "deny"]),
  /** Why, one sentence each (the recommendation, the AVS result). */
  reasons: z.array(z.string()),
  approved_at: z.string().nullable(),
  /** The admin user who approved the capture. */
  approved_by: z.string().nullable(),
})
export type FraudRecord = z.infer<typeof fraudRecordSchema>

/**
 * An order edit that Medusa answered by canceling this payment and asking a new payment collection
 * for the edited total (Medusa's createOrUpdateOrderPaymentCollection): the invoice reservation was
 * lowered with updateOrder and carried into that collection instead of released
 * (lib/item-captures/order-edit.ts). `kept`: on the payment Medusa canceled; `carried`: on the
 * payment of the new collection that holds the reservation now.
 */
export const orderEditRecordSchema = canonicalObject({
  order_id: z.string(),
  kept: canonicalObject({ payment_collection_id: z.string(), total_minor: z.number().int().positive(), at: z.string() }).optional(),
  carried: canonicalObject({ from_payment_id: z.string(), altapay_order_id: z.string() }).optional(),
})
export type OrderEditRecord = z.infer<typeof orderEditRecordSchema>

/** Unknown keys (a browser's) are dropped: only the provider's own fields are ever read. */
export const paymentDataSchema = canonicalObject({
  altapay_session_id: z.string().min(1),
  /**
   * AltaPay's shop_orderid as the session was created with it: the Medusa payment session id with
   * `-` for `_` (`payses-01J...`), or the id itself for sessions created before (shop-order-id.ts).
   */
  order_id: z.string().min(1),
  amount_minor: z.number().int().positive(),
  currency: z.string().length(3),
  terminal: z.string().nullable(),
  auto_capture: z.boolean(),
  order_lines: z.array(orderLineSchema),
  order_lines_source: z.enum(["store_route", "query", "summary"]),
  /** Where to send the customer (redirect flow). */
  redirect_url: z.string().nullable(),
  payment_id: z.string().nullable(),
  transaction_id: z.string().nullable(),
  transaction_status: z.string().nullable(),
  /** AltaPay's PaymentNature of the transaction (CreditCard, Invoice, Wallet, ...), once paid. */
  payment_nature: z.string().nullish(),
  masked_pan: z.string().nullable(),
  card_scheme: z.string().nullable(),
  reserved_minor: z.number().int().nullable(),
  captured_minor: z.number().int().nullable(),
  refunded_minor: z.number().int().nullable(),
  failure_reason: z.string().nullable(),
  /**
   * When this provider told Medusa the session is authorized: from then on a Medusa Payment owns
   * the reservation, and only Medusa's cancel may release it.
   */
  authorized_at: z.string().nullish(),
  captures: z.array(captureRecordSchema),
  refunds: z.array(refundRecordSchema),
  /**
   * Lines for the next refund of exactly `amount_minor`, written by the admin item-refund route
   * just before it runs Medusa's refund workflow (Medusa passes only an amount to the provider).
   */
  pending_refund: pendingRefundSchema.nullish(),
  /** Lines for the next capture of exactly `amount_minor` (an item capture; see pendingCaptureSchema). */
  pending_capture: pendingCaptureSchema.nullish(),
  /** When the payment was last checked against AltaPay, and by what: its callback, the customer's return, or a job. */
  reconciled: canonicalObject({ at: z.string(), by: z.enum(["callback", "return", "job"]) }).nullish(),
  /**
   * Chargeback events AltaPay notified, oldest first. Optional without a default: data sealed
   * before the field existed keeps its seal.
   */
  chargebacks: z.array(chargebackRecordSchema).optional(),
  /** The fraud check and the policy's decision (fraudRecordSchema). Optional: older seals stay valid. */
  fraud: fraudRecordSchema.optional(),
  /** AltaPay's AuthorisationExpiryDate: when an uncaptured reservation lapses (ISO 8601). Optional: older seals stay valid. */
  authorisation_expires_at: z.string().optional(),
  /** AltaPay's SurchargeAmount: what a surcharging terminal reserved on top of Medusa's amount. Optional: older seals stay valid. */
  surcharge_minor: z.number().int().nonnegative().optional(),
  /** An order edit that kept the reservation (orderEditRecordSchema). Optional: older seals stay valid. */
  order_edit: orderEditRecordSchema.optional(),
  /** Set for payments on an AltaPay agreement (agreementPaymentSchema). Optional: older seals stay valid. */
  agreement: agreementPaymentSchema.optional(),
  /**
   * The language AltaPay's payment page was asked for (configuration.language): a cart whose
   * language changed since gets a page in the new one. Optional: older seals stay valid.
   */
  page_language: z.string().optional(),
  /**
   * Whether a refund or capture is Open at AltaPay, so the open-results job finds such payments
   * with one query on `data`. Written by the seal, always (false too): Medusa merges a payment's
   * new `data` into the stored one, so a key left out would keep its old value.
   */
  awaiting_altapay: z.boolean().optional(),
  /**
   * Grows by one with every write made under the payment's lock, so the newest of two copies
   * (Medusa's, read before the lock was taken, and the one written last) is known.
   */
  revision: z.number().int().nonnegative().default(0),
})
export type AltaPayPaymentData = z.output<typeof paymentDataSchema>

export { canonicalJson }

/** Where the seal is stored in `data`. */
export const SEAL_FIELD = "altapay_seal"

/** Data as the provider hands it to Medusa: its own fields plus their seal. */
export type SealedPaymentData = AltaPayPaymentData & { [SEAL_FIELD]: string }

/** A version 2 seal (seal-format.ts); version 1, written up to 0.3.x, is still read. */
export function sealPaymentData(data: AltaPayPaymentData, keys: ServerKeys): SealedPaymentData {
  // Parsed with the flag in: zod writes every field in the schema's (canonical) order, and nothing but them.
  const own = paymentDataSchema.parse({ ...data, awaiting_altapay: hasOpenResults(data) })
  const text = canonicalJson(own, STORED_ORDER)
  const seal = sealOf(keys, schemaFingerprint(), text)
  const sealed = { ...own, [SEAL_FIELD]: seal }
  // The sealed object's JSON is the text just encoded plus the seal: kept for sealedJson.
  keepSealedText(sealed, `${text.slice(0, -1)},${JSON.stringify(SEAL_FIELD)}:${JSON.stringify(seal)}}`)
  return sealed
}

/** A refund or capture AltaPay answered Open and has not settled yet. */
export function hasOpenResults(data: Pick<AltaPayPaymentData, "refunds" | "captures">): boolean {
  return data.refunds.some((r) => r.status === "open") || data.captures.some((c) => c.status === "open")
}

export type Reconciler = NonNullable<AltaPayPaymentData["reconciled"]>["by"]

export type OpenedPaymentData =
  /** Written by this provider (with a key this store derives). */
  | { sealed: true; data: AltaPayPaymentData }
  /** Not provably ours; `data` is set when it at least has our shape (then read it only to look AltaPay up). */
  | { sealed: false; data?: AltaPayPaymentData; problem: string }

/**
 * Reads the provider's fields of `raw` and tells whether the seal proves the provider wrote them.
 * A version 2 seal is checked before zod reads anything: when it verifies and names this schema,
 * the fields are exactly what sealPaymentData wrote after this schema parsed them, so they are
 * used as they are (zod's parse was most of a check's cost). Named another schema (another
 * version of the plugin), they are proven and then parsed, which brings them to this schema.
 */
export function openPaymentData(raw: Record<string, unknown> | undefined | null, keys: ServerKeys): OpenedPaymentData {
  const seal = readSeal(raw?.[SEAL_FIELD])
  if (raw && seal?.version === 2) {
    // Only the provider's own fields: a browser's keys beside them are no part of the seal.
    const own = ownFields(raw)
    // In the seal's order (as Medusa's database returns it) JSON.stringify writes the canonical text.
    if (verifies(keys, seal, JSON.stringify(own)) || verifies(keys, seal, canonicalJson(own, STORED_ORDER))) {
      if (seal.schema === schemaFingerprint()) return { sealed: true, data: own as AltaPayPaymentData }
      const parsed = paymentDataSchema.safeParse(own)
      if (parsed.success) return { sealed: true, data: parsed.data }
    }
  }
  const parsed = paymentDataSchema.safeParse(raw ?? {})
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(".") || "data"))].join(", ")
    return { sealed: false, problem: `the data was not written by the AltaPay provider (bad or missing: ${fields})` }
  }
  if (!seal) return { sealed: false, data: parsed.data, problem: "the data carries no seal" }
  if (seal.version === 1 && verifies(keys, seal, canonicalJson(parsed.data, CODE_UNIT_ORDER))) return { sealed: true, data: parsed.data }
  return { sealed: false, data: parsed.data, problem: "the seal does not verify (changed data, or sealed with another key)" }
}

/** Names this schema in its seals (fingerprintOf). */
export const schemaFingerprint = (): string => fingerprintOf(paymentDataSchema)

/** The schema's own fields, in its order (STORED_ORDER). */
const OWN_FIELDS = Object.keys(paymentDataSchema.shape)

function ownFields(raw: Record<string, unknown>): Record<string, unknown> {
  const own: Record<string, unknown> = {}
  for (const field of OWN_FIELDS) if (raw[field] !== undefined) own[field] = raw[field]
  return own
}

/**
 * A Medusa payment session's data when the provider provably wrote it for that very session:
 * sealed, and its order id is the session's id. Anything else (a browser's data, another
 * session's data copied in) names no AltaPay session to act on.
 */
export function provenSessionData(session: { id: string; data?: Record<string, unknown> | null }, keys: ServerKeys): AltaPayPaymentData | undefined {
  const opened = openPaymentData(session.data, keys)
  return opened.sealed && namesSession(opened.data.order_id, session.id) ? opened.data : undefined
}

/** The stored data of a payment that has not been paid yet. */
export function freshPaymentData(
  fields: Pick<AltaPayPaymentData, "altapay_session_id" | "order_id" | "amount_minor" | "currency" | "terminal" | "auto_capture" | "order_lines" | "order_lines_source"> &
    Partial<Pick<AltaPayPaymentData, "redirect_url" | "payment_id" | "page_language">>
): AltaPayPaymentData {
  return {
    redirect_url: null,
    payment_id: null,
    transaction_id: null,
    transaction_status: null,
    masked_pan: null,
    card_scheme: null,
    reserved_minor: null,
    captured_minor: null,
    refunded_minor: null,
    failure_reason: null,
    authorized_at: null,
    captures: [],
    refunds: [],
    pending_refund: null,
    revision: 0,
    ...fields,
  }
}

/** The error for data a hook cannot act on: not the provider's, or not provably so. */
export function untrustedDataError(hook: string, problem: string): MedusaError {
  return new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay ${hook}: ${problem}. Nothing was sent to AltaPay; create a new AltaPay payment session.`)
}

export function requireTransactionId(data: AltaPayPaymentData, hook: string): string {
  if (!data.transaction_id) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `AltaPay ${hook}: the payment has no AltaPay transaction yet (the customer has not paid). Authorize it first.`)
  }
  return data.transaction_id
}
