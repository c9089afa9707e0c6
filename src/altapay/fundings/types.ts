/**
 * What AltaPay's payouts look like once read: a funding (one transfer to the merchant's bank
 * account, listed by `fundingList`) and the lines of its funding file (`fundingDownload`, a CSV).
 * Money is integer minor units of the named currency, as everywhere in this package.
 */

/** The Type values AltaPay's fundingDownload page lists; any other value is kept as it came. */
export const FUNDING_LINE_TYPES = ["payment", "refund", "adjustment", "rolling", "roundoff", "fee", "unknown", "payment_rejected", "refund_rejected"] as const
export type KnownFundingLineType = (typeof FUNDING_LINE_TYPES)[number]

/** One `<Funding>` of a fundingList page. */
export interface Funding {
  /** AltaPay's unique name of the funding file. */
  filename: string
  /** The merchant's id with the acquirer. */
  contractIdentifier: string
  /** e.g. `POS`; absent on some fundings. */
  fundingType?: string
  shops: string[]
  acquirer: string
  /** `YYYY-MM-DD`: when the money was paid out. */
  fundingDate: string
  /** The funding's amount (what reached the bank), from `<Amount>50.00 EUR</Amount>`. */
  amountMinor: number
  currency: string
  /** `YYYY-MM-DD`: when AltaPay made the file. */
  createdDate: string
  /** Where `fundingDownload` fetches the file (same host as the gateway, Basic auth). */
  downloadLink: string
  /** The text on the bank statement, when the provider gives one. */
  referenceText?: string
  accountNumber?: string
}

export interface FundingListPage {
  /** The page asked for (0 is the first). */
  page: number
  /** AltaPay's `numberOfPages`: pages 0 to numberOfPages - 1 exist. */
  numberOfPages: number
  /** At most 100 a page. */
  fundings: Funding[]
}

/** One line of a funding file, read. Amounts are in the currency named beside them. */
export interface FundingLine {
  /** 1-based line number in the file (the header is line 1). */
  line: number
  /** `YYYY-MM-DD`, the settlement date. */
  date: string
  /** As in the file, lower-cased; see `knownType`. */
  type: string
  /** False for a Type AltaPay's documentation does not list: kept, never dropped. */
  knownType: boolean
  /** The acquirer's id of the line. */
  id?: string
  /** The reconciliation identifier the capture or refund was sent with (or AltaPay gave it). */
  reconciliationIdentifier?: string
  /**
   * The Payment column: the gateway's TransactionId of the payment (numeric, e.g. `10029471`), not
   * the XML's PaymentId UUID. AltaPay's C# SDK reads it as `PaymentId` and sends that name as
   * `transaction_id` in every request (MerchantApi.cs); both SDKs' samples hold small numbers there.
   */
  paymentId?: string
  shopOrderId?: string
  terminal?: string
  shop?: string
  transactionCurrency?: string
  /** Signed as written; an empty cell is 0 (as AltaPay's C# SDK reads it) where the line names a Transaction Currency. */
  transactionAmountMinor?: number
  /** Exact decimal text; 1:1 is "100" (AltaPay's convention). Absent when the cell is empty. */
  exchangeRate?: string
  settlementCurrency: string
  /** Signed as written (a refund is negative); an empty cell is 0. */
  settlementAmountMinor: number
  /**
   * Fees in the settlement currency, signed as AltaPay writes them: a fee charged is negative
   * (AltaPay/sdk-csharp Funding42221.csv: -0.25 and -0.86), so a line nets settlement + fees. An
   * empty cell is 0, as AltaPay's C# SDK reads it.
   */
  fixedFeeMinor: number
  fixedFeeVatMinor: number
  rateBasedFeeMinor: number
  rateBasedFeeVatMinor: number
  /** Columns AltaPay's documentation does not list, by their header, as text. */
  extra: Record<string, string>
}

/** A line that could not be read: reported with its number, the rest of the file still read. */
export interface FundingLineIssue {
  line: number
  message: string
  /** The line's cells by header (or by position when there are more cells than headers). */
  cells: Record<string, string>
}

export type FundingFileEntry = { ok: true; line: FundingLine } | { ok: false; issue: FundingLineIssue }
