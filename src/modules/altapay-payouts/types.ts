/**
 * What the payouts module stores and answers. Money is integer minor units (numbers, exact below
 * 2^53) of the currency named beside it; dates AltaPay writes as `YYYY-MM-DD` stay text.
 */
import type { Funding, FundingFileEntry } from "../../altapay"

/** How a funding line was tied to Medusa's capture or refund. */
export type MatchMethod = "reconciliation_identifier" | "payment_and_amount"

/** A capture or refund Medusa recorded on an AltaPay payment: money that should reach a payout. */
export interface MoneyMovementInput {
  kind: "capture" | "refund"
  /** Medusa's capture (capt_...) or refund (ref_...) id. */
  medusaId: string
  /** Medusa's payment (pay_...). */
  paymentId: string
  /** Medusa's order, when the payment belongs to one. */
  orderId: string | null
  /** The registration the payment was made with, e.g. pp_altapay_altapay. */
  providerId: string
  /** The identifier the plugin sent with the capture or refund (payment data), when known. */
  reconciliationIdentifier: string | null
  /**
   * What a funding file's Payment column holds for this payment: the gateway's TransactionId
   * (payment data `transaction_id`), not its PaymentId UUID (see FundingLine.paymentId).
   */
  altapayPaymentId: string | null
  /** AltaPay's shop order id (payment data `order_id`). */
  altapayOrderId: string | null
  currency: string
  /** Positive, in `currency`'s minor units. */
  amountMinor: number
  recordedAt: Date
}

export interface ImportFundingFileInput {
  /** Whose files these are: the gateway's host and API user (not a secret), e.g. `testgateway.altapaysecure.com/shop_api`. */
  account: string
  /** The registration that imported it. */
  providerId: string
  funding: Funding
  entries: AsyncIterable<FundingFileEntry>
}

/** A funding file stored for an account, as AltaPay listed it when it was imported. */
export interface StoredFundingFile {
  fundingDate: string
  currency: string
  amountMinor: number
  /** Its lines add up, or it was downloaded as often as it will be: not downloaded again. */
  final: boolean
}

export interface ImportFundingFileResult {
  /**
   * already_imported: another run (or server) stored this file first; nothing was written.
   * replaced: the stored lines did not add up to the funding's Amount (a download cut short), so this
   * download replaced them (at most MAX_FUNDING_FILE_DOWNLOADS downloads a file).
   */
  outcome: "imported" | "replaced" | "already_imported"
  fileId: string
  lines: number
  unreadableLines: number
  /** Sum of the lines' settlement amounts and their (negative) fees, in the funding's currency. */
  netMinor: number
  /** The funding's Amount (fundingList). */
  amountMinor: number
  /** False when the lines do not add up to the funding's Amount (a cut download, or fees we cannot see). */
  totalsAgree: boolean
}

export interface MatchResult {
  byReconciliationIdentifier: number
  byPaymentAndAmount: number
}

export interface FundingFileSummary {
  id: string
  account: string
  providerId: string
  filename: string
  fundingDate: string
  createdDate: string | null
  contractIdentifier: string | null
  acquirer: string | null
  shops: string[]
  currency: string
  /** The funding's Amount, as AltaPay listed it. */
  amountMinor: number
  /** Settlement amounts of all lines (payments less refunds and other lines). */
  grossMinor: number
  /** Fees and their VAT, signed as AltaPay writes them: a fee charged is negative. */
  feesMinor: number
  /** The VAT part of `feesMinor`: the lines' fixed fee VAT and rate-based fee VAT, signed as the fees. */
  feeVatMinor: number
  /** gross + fees: what the lines pay out. */
  netMinor: number
  totalsAgree: boolean
  lineCount: number
  unreadableLineCount: number
  /** Lines of type payment/refund (and their _rejected forms) tied to a Medusa capture or refund. */
  matchedCount: number
  /** Lines of those types tied to nothing in Medusa. */
  unmatchedCount: number
  importedAt: string
}

export interface FundingLineView {
  id: string
  fileId: string
  lineNumber: number
  date: string | null
  type: string | null
  knownType: boolean
  acquirerId: string | null
  reconciliationIdentifier: string | null
  altapayPaymentId: string | null
  altapayOrderId: string | null
  terminal: string | null
  shop: string | null
  transactionCurrency: string | null
  transactionAmountMinor: number | null
  exchangeRate: string | null
  settlementCurrency: string | null
  settlementAmountMinor: number | null
  /**
   * The line's four fees as the file has them, in the settlement currency, signed as AltaPay writes
   * them (a fee charged is negative; an empty cell is 0); null on a line that could not be read.
   */
  fixedFeeMinor: number | null
  fixedFeeVatMinor: number | null
  rateBasedFeeMinor: number | null
  rateBasedFeeVatMinor: number | null
  /** The four fees added up (0 on a line that could not be read). */
  feesMinor: number
  netMinor: number | null
  extra: Record<string, string>
  /** The reader's message for a line that could not be read (its cells in `cells`). */
  issue: string | null
  cells: Record<string, string> | null
  match: null | {
    method: MatchMethod
    kind: "capture" | "refund"
    medusaId: string
    paymentId: string
    orderId: string | null
    currency: string
    amountMinor: number
  }
}

export const EXCEPTION_KINDS = [
  /** A capture or refund older than the cut-off that no funding line names (a rejected one is `rejected`). */
  "unfunded",
  /** A payment or refund line tied to nothing in Medusa. */
  "unmatched_line",
  /** A line tied to a capture or refund whose amount or currency differs. */
  "amount_differs",
  /** A capture or refund paid out on more than one line (a funding sent twice): the later lines are listed. */
  "paid_twice",
  /** A payment_rejected or refund_rejected line. */
  "rejected",
  /** A line the reader could not read. */
  "unreadable_line",
  /** A file whose lines do not add up to the funding's Amount. */
  "file_total_differs",
  /**
   * A line in the funding's net that is neither a payment or refund nor one of AltaPay's fees and
   * corrections: `unknown` (an amount the acquirer does not explain) and types AltaPay does not
   * document (an acquirer's `chargeback`).
   */
  "unexplained_line",
] as const
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number]

export interface PayoutException {
  kind: ExceptionKind
  /** What finance should know, in a sentence. */
  message: string
  fileId: string | null
  filename: string | null
  fundingDate: string | null
  lineId: string | null
  lineNumber: number | null
  lineType: string | null
  medusaId: string | null
  paymentId: string | null
  orderId: string | null
  currency: string | null
  /** Medusa's amount (capture/refund), when there is one, in `medusaCurrency`. */
  medusaAmountMinor: number | null
  /** The currency of Medusa's payment (it may differ from the line's, which is `amount_differs` too). */
  medusaCurrency: string | null
  /** The line's transaction amount; for file_total_differs, the funding's Amount (the message gives the lines' net). */
  altapayAmountMinor: number | null
  /** When Medusa recorded the capture/refund, or the line's date. */
  date: string | null
}

export interface ExceptionQuery {
  kinds?: ExceptionKind[]
  /** unfunded: captures and refunds recorded before this, per registration (provider id -> cut-off); `default` for the rest. */
  unfundedBefore: { default: Date; byProvider?: Record<string, Date> }
  /** unfunded: per registration, captures and refunds recorded before this are left out (its `payouts.reconcileFrom`). */
  reconcileFrom?: Record<string, Date>
  limit: number
  offset: number
}

/** Where one capture or refund of a payment went: which payout, or not yet. */
export interface MovementPayout {
  kind: "capture" | "refund"
  medusaId: string
  amountMinor: number
  currency: string
  recordedAt: string
  /** funded: on a payment/refund line; rejected: on a _rejected line; awaiting: on no line yet. */
  status: "funded" | "rejected" | "awaiting"
  lines: Array<{
    lineId: string
    fileId: string
    filename: string
    fundingDate: string
    lineDate: string | null
    type: string | null
    method: MatchMethod
    settlementCurrency: string | null
    settlementAmountMinor: number | null
    feesMinor: number
    netMinor: number | null
  }>
}

export interface Page {
  limit: number
  offset: number
}
