/**
 * Example funding files (`altapay-sandbox --example-fundings`): a payout to look at without making
 * payments first. One file shows every documented line Type with fees and a DKK -> EUR conversion;
 * a second one a Type and a column AltaPay's documentation does not list, which a reader must keep.
 * The transactions they name exist nowhere: they are examples, not the sandbox's own payments.
 */
import { convert, exchangeRate, fees, type SandboxFundingLine } from "./funding-file"
import { dayOf, type FundingBook } from "./fundings"

const DAY_MS = 24 * 60 * 60 * 1000

function transactionLine(
  date: string,
  id: string,
  type: "payment" | "refund" | "payment_rejected" | "refund_rejected",
  order: string,
  currency: string,
  amountMinor: number,
  settlementCurrency: string
): SandboxFundingLine {
  const rejected = type.endsWith("_rejected")
  const kind = type.startsWith("payment") ? "payment" : "refund"
  const signed = kind === "payment" ? amountMinor : -amountMinor
  const settlement = rejected ? 0 : convert(signed, currency, settlementCurrency)
  return {
    date,
    type,
    id,
    transaction: {
      // A UUID (as AltaPay's page types it) and a numeric transaction id (as in AltaPay's sample
      // files' Payment column): fixed values derived from the line id.
      reconciliationIdentifier: `00000000-0000-4000-8000-${id.slice(2).padStart(12, "0")}`,
      paymentId: String(90_000_000 + Number(id.slice(2))),
      shopOrderId: order,
      terminal: "AltaPay Sandbox Terminal",
      shop: "AltaPay Sandbox Shop",
      currency,
      amountMinor: signed,
      exchangeRate: exchangeRate(currency, settlementCurrency),
    },
    settlementCurrency,
    settlementAmountMinor: settlement,
    ...(rejected ? {} : { fees: fees(settlement, settlementCurrency, kind) }),
  }
}

/** Adds the example files to `book`, dated the days before `now`. */
export function addExampleFundings(book: FundingBook, now: number): void {
  const day = (n: number): string => dayOf(now - n * DAY_MS)
  const first: SandboxFundingLine[] = [
    transactionLine(day(3), "EX000000001", "payment", "example-order-1001", "DKK", 74_995, "EUR"),
    transactionLine(day(3), "EX000000002", "payment", "example-order-1002", "EUR", 12_900, "EUR"),
    transactionLine(day(3), "EX000000003", "refund", "example-order-0998", "DKK", 19_900, "EUR"),
    transactionLine(day(3), "EX000000004", "payment_rejected", "example-order-1003", "DKK", 4_500, "EUR"),
    transactionLine(day(3), "EX000000005", "refund_rejected", "example-order-0997", "EUR", 1_000, "EUR"),
    { date: day(3), type: "adjustment", id: "EX000000006", settlementCurrency: "EUR", settlementAmountMinor: -250 },
    { date: day(3), type: "rolling", id: "EX000000007", settlementCurrency: "EUR", settlementAmountMinor: -1_000 },
    { date: day(3), type: "fee", id: "EX000000008", settlementCurrency: "EUR", settlementAmountMinor: -1_500 },
    { date: day(3), type: "roundoff", id: "EX000000009", settlementCurrency: "EUR", settlementAmountMinor: 1 },
    { date: day(3), type: "unknown", id: "EX000000010", settlementCurrency: "EUR", settlementAmountMinor: 10 },
  ]
  book.addLines(first, { currency: "EUR", filename: `Sandbox_Example_${day(2)}_EUR`, fundingDate: day(2), fundingType: "POS" }, now - 2 * DAY_MS)
  const second: SandboxFundingLine[] = [
    { ...transactionLine(day(1), "EX000000011", "payment", "example-order-1004", "SEK", 129_500, "EUR"), extra: { Scheme: "Visa" } },
    { date: day(1), type: "chargeback", id: "EX000000012", settlementCurrency: "EUR", settlementAmountMinor: -4_000, extra: { Scheme: "Mastercard" } },
  ]
  book.addLines(second, { currency: "EUR", filename: `Sandbox_Example_${day(0)}_EUR`, fundingDate: day(0), extraColumns: ["Scheme"] }, now)
}
