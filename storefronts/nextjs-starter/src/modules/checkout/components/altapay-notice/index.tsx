"use client"

import { altapayCartLanguage, altapayText } from "@lib/util/altapay-i18n"
import { HttpTypes } from "@medusajs/types"
import { useSearchParams } from "next/navigation"

/**
 * The payment step's message after a payment at AltaPay did not go through, in the cart's
 * language (`altapay` is set by the kit's landing page, src/app/api/altapay/landing, when no
 * order was placed).
 */
const AltaPayNotice = ({ cart }: { cart: HttpTypes.StoreCart }) => {
  const reason = useSearchParams().get("altapay")
  if (!reason) {
    return null
  }
  const language = altapayCartLanguage(cart)

  return (
    <div
      role="alert"
      className="mb-4 rounded-rounded border border-rose-300 bg-rose-50 p-4 text-small-regular text-rose-700"
      data-testid="altapay-payment-notice"
    >
      {altapayText(
        language,
        reason === "unconfirmed" ? "noticeUnconfirmed" : "noticeFailed",
      )}
    </div>
  )
}

export default AltaPayNotice
