/**
 * The sandbox's funding files: the lines it writes (AltaPay's documented columns, in their
 * documented order), the money on them (a fixed exchange-rate table, fees) and the CSV text, laid
 * out as AltaPay's own sample files are (AltaPay/api-php tests/Api/Results/fundingdownload.txt,
 * AltaPay/sdk-csharp AltaPayApi.Tests/Unit/txt/Funding42221.csv): `;` between cells, a cell with a
 * space in double quotes, fees negative, an amount cell empty where there is no amount.
 * Amounts are integer minor units until they are written as decimal text.
 */
import { currencyInfo, divRound, minorToDecimal } from "../../altapay/money"

/** The columns AltaPay's fundingDownload page lists, in its order. */
export const FUNDING_COLUMN_NAMES =
  "Date,Type,ID,Reconciliation Identifier,Payment,Order,Terminal,Shop,Transaction Currency,Transaction Amount,Exchange Rate,Settlement Currency,Settlement Amount,Fixed Fee,Fixed Fee VAT,Rate Based Fee,Rate Based Fee VAT".split(
    ","
  )

/** AltaPay's files separate cells with `;` (both SDKs' samples; the C# SDK's reader splits on it). */
export const FUNDING_DELIMITER = ";"

/** The cells that tie a line to a capture or refund (absent on fees, adjustments, unknown lines). */
export interface FundingTransactionCells {
  reconciliationIdentifier: string
  /** The Payment column: the gateway's TransactionId (numeric), as in AltaPay's sample files. */
  paymentId: string
  shopOrderId: string
  terminal: string
  shop: string
  currency: string
  /** Signed: a refund is negative. */
  amountMinor: number
  /** Decimal text, 1:1 = "100". */
  exchangeRate: string
}

/** Fixed fee, its VAT, rate-based fee, its VAT: minor units of the settlement currency, negative as AltaPay writes a fee charged. */
export type FundingFees = [fixed: number, fixedVat: number, rateBased: number, rateBasedVat: number]

/** One line as the sandbox holds it. */
export interface SandboxFundingLine {
  date: string
  type: string
  id: string
  transaction?: FundingTransactionCells
  settlementCurrency: string
  settlementAmountMinor: number
  fees?: FundingFees
  /** Cells of extra columns (the example files' "Scheme"), by header. */
  extra?: Record<string, string>
}

/** Value of one unit in EUR, four decimals, as integers (x 10^4): a fixed table, not market rates. */
const EUR_VALUE_E4: Record<string, bigint> = { EUR: 10_000n, DKK: 1_340n, SEK: 870n, NOK: 850n, USD: 9_200n, GBP: 11_700n, CHF: 10_500n, PLN: 2_300n, JPY: 62n }

export const canConvert = (from: string, to: string): boolean => from === to || (EUR_VALUE_E4[from] !== undefined && EUR_VALUE_E4[to] !== undefined)

/** The Exchange Rate cell from `from` to `to` (x 100, so 1:1 is "100"), at most 4 decimals. */
export function exchangeRate(from: string, to: string): string {
  if (from === to) return "100"
  const scaled = divRound(EUR_VALUE_E4[from] * 1_000_000n, EUR_VALUE_E4[to]) // rate x 100 x 10^4
  const whole = scaled / 10_000n
  const fraction = String(scaled % 10_000n)
    .padStart(4, "0")
    .replace(/0+$/, "")
  return fraction ? `${whole}.${fraction}` : String(whole)
}

/** `minor` of `from` in minor units of `to` at the table's rate, rounded half away from zero. */
export function convert(minor: number, from: string, to: string): number {
  if (from === to) return minor
  const [fromExp, toExp] = [currencyInfo(from).exponent, currencyInfo(to).exponent]
  const numerator = BigInt(minor) * EUR_VALUE_E4[from] * 10n ** BigInt(toExp)
  return Number(divRound(numerator, EUR_VALUE_E4[to] * 10n ** BigInt(fromExp)))
}

/**
 * The sandbox's price list: 0.25 a line (in the settlement currency), 1.5 % of a payment, 25 % VAT
 * on each; negative, as AltaPay's files carry a fee charged (sdk-csharp Funding42221.csv: -0.25, -0.86).
 */
export function fees(settlementMinor: number, currency: string, kind: "payment" | "refund"): FundingFees {
  const exponent = BigInt(currencyInfo(currency).exponent)
  const fixed = Number(divRound(25n * 10n ** exponent, 100n))
  const rate = kind === "payment" ? Number(divRound(BigInt(Math.abs(settlementMinor)) * 15n, 1_000n)) : 0
  return [-fixed, -Number(divRound(BigInt(fixed), 4n)), -rate, -Number(divRound(BigInt(rate), 4n))].map((fee) => fee || 0) as FundingFees
}

/** What the bank receives for a line: its settlement amount plus its (negative) fees and their VAT. */
export function netOf(line: SandboxFundingLine): number {
  return (line.fees ?? []).reduce((net, fee) => net + fee, line.settlementAmountMinor)
}

/** A cell as AltaPay's files write it: in double quotes when it holds a space, `;`, a quote or a line break. */
const quote = (cell: string): string => (/[\s;"]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)
const money = (minor: number | undefined, currency: string | undefined): string => (minor === undefined || currency === undefined ? "" : minorToDecimal(minor, currency))

/** One line as a CSV row (no line ending). */
export function fundingCsvRow({ transaction: t, ...l }: SandboxFundingLine, extraColumns: string[] = []): string {
  return [
    l.date,
    l.type,
    l.id,
    ...(t ? [t.reconciliationIdentifier, t.paymentId, t.shopOrderId, t.terminal, t.shop, t.currency, money(t.amountMinor, t.currency), t.exchangeRate] : Array<string>(8).fill("")),
    l.settlementCurrency,
    money(l.settlementAmountMinor, l.settlementCurrency),
    ...(l.fees ?? [undefined, undefined, undefined, undefined]).map((fee) => money(fee, l.settlementCurrency)),
    ...extraColumns.map((column) => l.extra?.[column] ?? ""),
  ]
    .map(quote)
    .join(FUNDING_DELIMITER)
}

/** The header row with any extra columns after the documented ones: `Date;Type;ID;"Reconciliation Identifier";...`. */
export const fundingCsvHeader = (extraColumns: string[] = []): string => [...FUNDING_COLUMN_NAMES, ...extraColumns].map(quote).join(FUNDING_DELIMITER)

/** The header row as AltaPay's files have it. */
export const FUNDING_HEADER = fundingCsvHeader()

/**
 * The file as AltaPay's samples have it: `;`-separated (the fundingDownload page says "comma
 * separated value", AltaPay's own files and readers use `;`), one header row, `\n` endings.
 */
export function fundingCsv(lines: SandboxFundingLine[], extraColumns: string[] = []): string {
  return [fundingCsvHeader(extraColumns), ...lines.map((line) => fundingCsvRow(line, extraColumns))].join("\n") + "\n"
}
