/**
 * The order panel's review section (fraud check, approval, the reservation's expiry), its sentences
 * built from the admin's catalogue (`review.*`). The reasons come from the server, as written.
 */
import type { AdminAltaPayPayment } from "../../api/admin/altapay/_lib/payment-view"
import type { AdminT } from "../i18n/catalogues"
import type { DayFormat } from "./reservation-left"

type Review = AdminAltaPayPayment["review"]
type Fraud = NonNullable<Review["fraud"]>
type Expiry = NonNullable<Review["expiry"]>

/** The warning over a held payment, or the note that a merchant approved it. */
export function fraudText(t: AdminT, fraud: Fraud, day: DayFormat): { variant: "warning" | "error" | "info"; text: string } | null {
  const why = fraud.reasons.join("; ")
  if (fraud.held) return { variant: "warning", text: t("review.held", { why }) }
  if (fraud.decision === "hold" && fraud.approved_at) return { variant: "info", text: t("review.approved", { day: day(fraud.approved_at), why }) }
  if (fraud.decision === "deny") return { variant: "error", text: t("review.deniedButCaptured", { why }) }
  return null
}

/** AVS code and AltaPay's description of it. */
export const avsText = (t: AdminT, fraud: Fraud): string => (fraud.avs_code ? [fraud.avs_code, fraud.avs_text].filter(Boolean).join(" – ") : t("review.avsNone"))

/** The reservation's lapse, and what happens at a capture after it. */
export function expiryText(t: AdminT, expiry: Expiry, day: DayFormat): { variant: "warning" | "error" | "info"; text: string } {
  const when = day(expiry.expires_at)
  if (expiry.lapsed) return { variant: "error", text: t("review.lapsed", { day: when }) }
  const soon = expiry.days_left < 2
  return { variant: soon ? "warning" : "info", text: t(soon ? "review.expiresSoon" : "review.expires", { day: when }) }
}
