/** How AltaPay states map onto Medusa's: one place, so every hook and the webhook agree. */
import { PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import {
  AUTHORIZED_STATUSES,
  CAPTURED_STATUSES,
  DECLINED_STATUSES,
  minorToDecimal,
  RELEASED_STATUSES,
  REFUNDED_STATUSES,
  statusIn,
  type AltaPayCallback,
  type GatewayTransaction,
} from "../../altapay"
import { namesSession } from "./shop-order-id"

/** Of all transactions for one order, the one that matters: a paid one if any, else the latest. */
export function pickTransaction(transactions: GatewayTransaction[]): GatewayTransaction | undefined {
  const byDate = [...transactions].sort((a, b) => (a.createdDate?.getTime() ?? 0) - (b.createdDate?.getTime() ?? 0))
  const paid = byDate.filter((t) => statusIn(t.transactionStatus, [...AUTHORIZED_STATUSES, ...CAPTURED_STATUSES, ...REFUNDED_STATUSES]))
  // An agreement's set-up (recurring_confirmed, nothing reserved) pays nothing when its charge is there.
  const paying = paid.filter((t) => !AGREEMENT_SETUP_TYPES.has(t.authType ?? ""))
  return paying.at(-1) ?? paid.at(-1) ?? byDate.at(-1)
}

/** AuthTypes of an agreement's set-up transaction (api-php PaymentTypes; sdk-csharp AuthType). */
const AGREEMENT_SETUP_TYPES: ReadonlySet<string> = new Set(["subscription", "subscriptionAndReserve", "subscriptionAndCharge", "verifyCard"])

/** The Medusa payment session a charge on an agreement was made for (its transaction_info; our charges set it). */
export function chargedSession(transaction: GatewayTransaction): string | undefined {
  if (transaction.authType !== "subscription_payment") return undefined
  return transaction.paymentInfos.find((info) => info.name === "medusa_payment_session_id")?.value || undefined
}

/**
 * Another Medusa record's transaction, never a payment of `sessionId` under its shop_orderid: a
 * merchant-started charge (it names its payment collection), or any charge on an agreement that does
 * not name the session (every charge keeps the set-up's shop_orderid; ours name their session).
 */
export function heldElsewhere(transaction: GatewayTransaction, sessionId: string): boolean {
  if (transaction.paymentInfos?.some((info) => info.name === "medusa_payment_collection_id" && info.value)) return true
  if (transaction.authType !== "subscription_payment") return false
  const charged = chargedSession(transaction)
  return !charged || !namesSession(charged, sessionId)
}

/** AltaPay's transactions really for `orderId`: a Medusa payment session id or its shop_orderid, in either form (shop-order-id.ts). */
function ofOrder(orderId: string, transactions: GatewayTransaction[]): GatewayTransaction[] {
  return transactions.filter((t) => namesSession(t.shopOrderId, orderId) && !heldElsewhere(t, orderId))
}

/** Of AltaPay's transactions for a shop_orderid filter, the one that matters among those really for `orderId`. */
export function transactionForOrder(orderId: string, transactions: GatewayTransaction[]): GatewayTransaction | undefined {
  return pickTransaction(ofOrder(orderId, transactions))
}

/**
 * The paid transactions for `orderId` other than the one transactionForOrder picks, which authorize
 * records: the customer paid more than once, and these can never be an order's.
 */
export function otherPaymentsFor(orderId: string, transactions: GatewayTransaction[]): GatewayTransaction[] {
  const own = ofOrder(orderId, transactions)
  const picked = pickTransaction(own)?.transactionId
  return own.filter((t) => t.transactionId !== picked && !AGREEMENT_SETUP_TYPES.has(t.authType ?? "") && isPaidAtAltaPay(t))
}

/** This session's charge on a saved card (it keeps the agreement's shop_orderid; its transaction_info names the session). */
export function chargeForSession(sessionId: string, transactions: GatewayTransaction[]): GatewayTransaction | undefined {
  return pickTransaction(
    transactions.filter((t) => {
      const charged = chargedSession(t)
      return charged !== undefined && namesSession(charged, sessionId)
    })
  )
}

/** The agreement a session's hosted page set up while paying (subscriptionAndReserve/-Charge), once confirmed. */
export function agreementSetUpFor(orderId: string, transactions: GatewayTransaction[]): GatewayTransaction | undefined {
  return transactions.find((t) => namesSession(t.shopOrderId, orderId) && AGREEMENT_SETUP_TYPES.has(t.authType ?? "") && statusIn(t.transactionStatus, ["recurring_confirmed"]))
}

export interface SessionStatusResult {
  status: PaymentSessionStatus
  reason?: string
  /**
   * mismatch: AltaPay positively states a reservation of another amount or currency.
   * unknown: AltaPay's answer does not say what was reserved; that is no evidence of anything,
   * so it neither authorizes nor counts as "paid for something else" (nothing is released on it).
   */
  finding?: "mismatch" | "unknown"
  /** A paid session the merchant must hear about (a surcharge AltaPay added: surchargeNotice; part captured before: capturedStatus). */
  notice?: string
}

/** What a session must have reserved at AltaPay to count as paid. */
export interface ExpectedReservation {
  amountMinor: number
  /** ISO 4217 alphabetic code. */
  currency: string
  /**
   * The terminals the payment may have been made on (the registration's); undefined: not checked.
   * A CUSTOMER token lets a browser pay on any terminal of the API user, with other fees and
   * settlement, so a payment on another terminal pays for nothing here.
   */
  terminals?: string[]
}

/**
 * Medusa's session status for an AltaPay transaction that should reserve `expected`. A paid
 * transaction authorizes only when AltaPay states both the reserved amount and its currency and
 * both match: 1000.00 SEK never pays for 1000.00 DKK, and a reservation AltaPay does not describe
 * pays for nothing.
 */
export function sessionStatusFor(transaction: GatewayTransaction | undefined, expected: ExpectedReservation): SessionStatusResult {
  if (!transaction) return { status: PaymentSessionStatus.PENDING }
  const status = transaction.transactionStatus
  const paid = statusIn(status, AUTHORIZED_STATUSES) || statusIn(status, CAPTURED_STATUSES) || statusIn(status, REFUNDED_STATUSES)
  if (paid) {
    const unknown = reservationUnknown(transaction, expected)
    // An answer without the reserved amount or its currency: not authorized now, asked again later.
    if (unknown) return { status: PaymentSessionStatus.PENDING, reason: unknown, finding: "unknown" }
    const mismatch = reservationMismatch(transaction, expected)
    // A payment for another amount or currency (the cart changed after the customer paid, or the
    // AltaPay session was changed from the browser) never authorizes this session.
    if (mismatch) return { status: PaymentSessionStatus.ERROR, reason: mismatch, finding: "mismatch" }
  }
  const notice = paid ? surchargeNotice(transaction, expected) : undefined
  if (notice) return { ...sessionStatusFor({ ...transaction, surchargeAmount: undefined, reservedAmount: goodsOnly(transaction) }, expected), notice }
  if (statusIn(status, CAPTURED_STATUSES) || statusIn(status, REFUNDED_STATUSES)) return capturedStatus(transaction, expected)
  if (statusIn(status, AUTHORIZED_STATUSES)) return { status: PaymentSessionStatus.AUTHORIZED }
  if (statusIn(status, RELEASED_STATUSES)) return { status: PaymentSessionStatus.CANCELED }
  if (statusIn(status, DECLINED_STATUSES)) {
    return { status: PaymentSessionStatus.ERROR, reason: `AltaPay declined the payment (${status}${transaction.reasonCode ? `, ${transaction.reasonCode}` : ""})` }
  }
  return { status: PaymentSessionStatus.PENDING }
}

/**
 * Captured at AltaPay: Medusa books a capture of the whole session for CAPTURED. Part of it captured
 * (in AltaPay's merchant interface, before Medusa recorded the payment) is AUTHORIZED instead, with
 * what AltaPay captured kept in the payment's data: Medusa's Capture then takes only what is left,
 * and the books meet (outside-movements.ts tells the merchant how).
 */
function capturedStatus(transaction: GatewayTransaction, expected: ExpectedReservation): SessionStatusResult {
  const captured = transaction.capturedAmount?.minor
  if (captured === undefined || captured >= expected.amountMinor) return { status: PaymentSessionStatus.CAPTURED }
  const currency = transaction.capturedAmount?.currency ?? expected.currency
  return {
    status: PaymentSessionStatus.AUTHORIZED,
    notice: `AltaPay has captured ${minorToDecimal(captured, currency)} of the ${minorToDecimal(expected.amountMinor, currency)} ${currency.toUpperCase()} on transaction ${transaction.transactionId} (in its merchant interface): recorded as authorized, so Medusa's Capture takes only what is left`,
  }
}

const wantedText = (expected: ExpectedReservation) => `${expected.amountMinor} minor units of ${expected.currency}`

function reservationUnknown(transaction: GatewayTransaction, expected: ExpectedReservation): string | undefined {
  if (expected.terminals && !transaction.terminal) return `AltaPay states no terminal for transaction ${transaction.transactionId}`
  const reserved = transaction.reservedAmount
  if (!reserved) return `AltaPay states no reserved amount for transaction ${transaction.transactionId}; the session is for ${wantedText(expected)}`
  if (!reserved.currency)
    return `AltaPay states no currency for the ${reserved.decimal} reserved on transaction ${transaction.transactionId}; the session is for ${wantedText(expected)}`
  return undefined
}

/** Only for a reservation AltaPay describes in full (reservationUnknown found nothing). */
function reservationMismatch(transaction: GatewayTransaction, expected: ExpectedReservation): string | undefined {
  if (expected.terminals && !expected.terminals.includes(transaction.terminal!)) {
    return `transaction ${transaction.transactionId} was paid on terminal ${JSON.stringify(transaction.terminal)}, not on this registration's (${expected.terminals.map((t) => JSON.stringify(t)).join(", ")}); list it in the registration's acceptedTerminals if such payments are meant to be taken`
  }
  const reserved = goodsOnly(transaction) ?? transaction.reservedAmount!
  const wanted = wantedText(expected)
  if (reserved.currency!.toUpperCase() !== expected.currency.toUpperCase() || reserved.minor !== expected.amountMinor) {
    return `AltaPay reserved ${reserved.decimal} ${reserved.currency} but the session is for ${wanted}`
  }
  return undefined
}

/**
 * A terminal with surcharging reserves Medusa's total plus SurchargeAmount (sdk-php
 * AltapayAPIPayment::getInitialAmount: ReservedAmount - SurchargeAmount is the goods). Such a
 * reservation pays for the session when the goods are exactly its amount: the plugin captures
 * Medusa's amount, never the surcharge (surcharging consumer cards is not allowed in the EU), and the
 * merchant is told to have AltaPay turn surcharging off.
 */
function goodsOnly(transaction: GatewayTransaction): GatewayTransaction["reservedAmount"] {
  const reserved = transaction.reservedAmount
  const surcharge = transaction.surchargeAmount?.minor ?? 0
  if (!reserved || surcharge <= 0) return reserved
  const minor = reserved.minor - surcharge
  return { ...reserved, minor, decimal: reserved.currency ? minorToDecimal(minor, reserved.currency) : reserved.decimal }
}

function surchargeNotice(transaction: GatewayTransaction, expected: ExpectedReservation): string | undefined {
  const surcharge = transaction.surchargeAmount
  const goods = goodsOnly(transaction)
  if (!surcharge || surcharge.minor <= 0 || !goods || goods.minor !== expected.amountMinor) return undefined
  return (
    `AltaPay reserved ${transaction.reservedAmount?.decimal} ${goods.currency ?? expected.currency} on transaction ${transaction.transactionId}: the order's ${goods.decimal} plus a surcharge of ${surcharge.decimal} the terminal ${JSON.stringify(transaction.terminal ?? "")} added. ` +
    `Surcharging consumer cards is not allowed in the EU: only the order's amount is captured (a payment AltaPay captured at once took the surcharge too: refund it in AltaPay's merchant interface). Ask AltaPay to turn surcharging off on this terminal.`
  )
}

/**
 * The webhook action for a (verified) callback. Status values as AltaPay's Magento plugin reads
 * them (plugin-magento2-community Controller/Index/Notification.php): `succeeded` and `success` are
 * paid; `error`, `failed`, `incomplete` and `declined` failed; `cancelled` cancelled.
 */
export function webhookActionFor(callback: AltaPayCallback): PaymentActions {
  const payment = callback.paymentStatus ?? ""
  switch (callback.status) {
    case "succeeded":
    case "success":
      if (statusIn(payment, CAPTURED_STATUSES)) return PaymentActions.SUCCESSFUL
      if (statusIn(payment, AUTHORIZED_STATUSES) || payment === "") return PaymentActions.AUTHORIZED
      return PaymentActions.NOT_SUPPORTED
    case "open":
    case "new":
      return PaymentActions.PENDING
    case "failed":
    case "error":
    case "incomplete":
    case "declined":
      return PaymentActions.FAILED
    case "cancelled":
      return PaymentActions.CANCELED
    default:
      return PaymentActions.NOT_SUPPORTED
  }
}

/** AltaPay holds money for the payment: reserved, or captured (also when part of it is refunded since). */
export function isPaidAtAltaPay(transaction: GatewayTransaction): boolean {
  if (statusIn(transaction.transactionStatus, [...AUTHORIZED_STATUSES, ...CAPTURED_STATUSES])) return true
  return statusIn(transaction.transactionStatus, REFUNDED_STATUSES) && (transaction.capturedAmount?.minor ?? 0) > (transaction.refundedAmount?.minor ?? 0)
}

/**
 * An open payment ("Open payments" in AltaPay's Payment types: the acquirer has not concluded, and
 * AltaPay applies no timeout): neither paid nor failed yet, so it is waited for, never given up.
 * `created` is not open: the customer has not finished the payment page.
 */
export function isOpenAtAltaPay(transaction: GatewayTransaction): boolean {
  return statusIn(transaction.transactionStatus, ["pending"])
}

/** Medusa's pending_authorization (Medusa 2.13 and later; undefined before): the order is placed, its payment awaited. */
export const PENDING_AUTHORIZATION = (PaymentSessionStatus as unknown as Record<string, PaymentSessionStatus | undefined>).PENDING_AUTHORIZATION

/** The status to tell Medusa for an open payment: pending_authorization where Medusa has it, else pending (the cart waits). */
export function openPaymentStatus(): PaymentSessionStatus {
  return PENDING_AUTHORIZATION ?? PaymentSessionStatus.PENDING
}
