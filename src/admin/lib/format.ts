import type { Money } from "./altapay-api"

/** Exact amount text as the server computed it, e.g. "96.66 DKK" (no float rounding in the browser). */
export const formatMoney = (money: Money | null | undefined): string => (money ? `${money.decimal} ${money.currency}` : "–")

export const formatDate = (iso: string | null | undefined): string => {
  if (!iso) return "–"
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString()
}

/** AltaPay transaction status -> badge colour and label; a refund of part of the capture is "Partially refunded". */
export function statusBadge(
  status: string | null | undefined,
  amounts: { captured?: Money | null; refunded?: Money | null } = {}
): { color: "green" | "red" | "blue" | "orange" | "grey" | "purple"; label: string } {
  const refunded = amounts.refunded?.minor ?? 0
  const captured = amounts.captured?.minor ?? 0
  if (refunded > 0 && refunded < captured) return { color: "orange", label: "Partially refunded" }
  switch ((status ?? "").toLowerCase()) {
    case "preauth":
    case "invoice_initialized":
    case "recurring_confirmed":
      return { color: "blue", label: "Authorized" }
    case "captured":
    case "bank_payment_finalized":
      return { color: "green", label: "Captured" }
    case "refunded":
      return { color: "purple", label: "Refunded" }
    case "released":
      return { color: "grey", label: "Released" }
    case "created":
    case "pending":
    case "":
      return { color: "orange", label: status ? "Pending" : "Not paid" }
    default:
      return /error|failed|declined|cancelled/.test(status ?? "") ? { color: "red", label: status ?? "Failed" } : { color: "grey", label: status ?? "Unknown" }
  }
}
