// The file itself, not the client's index: money.ts is browser-safe, the rest of src/altapay is not.
import { minorToDecimal } from "../../altapay/money"
// The view's own type, not altapay-api.ts: that one would pull the admin's browser globals into the unit tests' tsconfig.
import type { Money } from "../../api/admin/altapay/_lib/payment-view"
import type { AdminT } from "../i18n/catalogues"

/** Exact amount text as the server computed it, e.g. "96.66 DKK" (no float rounding in the browser). */
export const formatMoney = (money: Money | null | undefined): string => (money ? `${money.decimal} ${money.currency}` : "–")

/**
 * Integer minor units as exact text with the currency's ISO 4217 exponent, the table the server
 * uses: 96660 DKK -> "966.60 DKK", 100 JPY -> "100 JPY". Digits are placed as text, never divided.
 * Without a currency ISO 4217 knows, the minor units as stored, said so in the admin's language.
 */
export function formatMinor(t: AdminT, minor: number | null | undefined, currency: string | null | undefined): string {
  if (minor === null || minor === undefined) return "–"
  try {
    if (currency) return `${minorToDecimal(minor, currency)} ${currency.toUpperCase()}`
  } catch {
    // A currency ISO 4217 does not list: no guessed decimals.
  }
  return t("common.minorUnits", { amount: currency ? `${minor} ${currency}` : `${minor}` })
}

/** Date and time in the admin's language (`useAdminText().language`). */
export const formatDate = (iso: string | null | undefined, language?: string): string => {
  if (!iso) return "–"
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(language)
}

/** AltaPay transaction status -> badge colour and label; a refund of part of the capture is "Partially refunded". */
export function statusBadge(
  t: AdminT,
  status: string | null | undefined,
  amounts: { captured?: Money | null; refunded?: Money | null } = {}
): { color: "green" | "red" | "blue" | "orange" | "grey" | "purple"; label: string } {
  const refunded = amounts.refunded?.minor ?? 0
  const captured = amounts.captured?.minor ?? 0
  if (refunded > 0 && refunded < captured) return { color: "orange", label: t("status.partiallyRefunded") }
  switch ((status ?? "").toLowerCase()) {
    case "preauth":
    case "invoice_initialized":
    case "recurring_confirmed":
      return { color: "blue", label: t("status.authorized") }
    case "captured":
    case "bank_payment_finalized":
      return { color: "green", label: t("status.captured") }
    case "refunded":
      return { color: "purple", label: t("status.refunded") }
    case "released":
      return { color: "grey", label: t("status.released") }
    case "created":
    case "pending":
    case "":
      return { color: "orange", label: t(status ? "status.pending" : "status.notPaid") }
    default:
      // AltaPay's own status name (e.g. epayment_declined) says more than a translation would.
      return /error|failed|declined|cancelled/.test(status ?? "") ? { color: "red", label: status ?? t("status.failed") } : { color: "grey", label: status ?? t("status.unknown") }
  }
}

/** The exceptions route's unfunded cut-off: per registration (and for other payments), or one number. */
export type UnfundedAfterDays = number | { default: number; byProvider: Record<string, number> }

/** "14 days", or per registration when they differ: "14 days (pp_altapay_card), 30 days (pp_altapay_mobilepay)". */
export function unfundedCutoffText(t: AdminT, days: UnfundedAfterDays): string {
  const plural = (count: number) => t("payouts.exceptions.days", { count })
  if (typeof days === "number") return plural(days)
  const perProvider = Object.entries(days.byProvider)
  const distinct = new Set(perProvider.map(([, n]) => n))
  if (distinct.size === 0) return plural(days.default)
  if (distinct.size === 1) return plural([...distinct][0])
  return perProvider.map(([provider, n]) => t("payouts.exceptions.daysFor", { days: plural(n), provider })).join(", ")
}
