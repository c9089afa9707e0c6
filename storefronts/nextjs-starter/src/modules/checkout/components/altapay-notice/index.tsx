"use client"

import { useSearchParams } from "next/navigation"

// Set by the kit's landing page (src/app/api/altapay/landing) when no order was placed.
const MESSAGES: Record<string, string> = {
  failed:
    "Your payment was not completed: it was declined or cancelled, and no order was placed. You can try again with the same or another payment method.",
  unconfirmed:
    "We could not confirm your payment yet, so no order was placed here. If it went through after all, the store places the order for you; otherwise anything reserved on your card is released. You can try again.",
}

/** The payment step's message after a payment at AltaPay did not go through. */
const AltaPayNotice = () => {
  const reason = useSearchParams().get("altapay")
  if (!reason) {
    return null
  }

  return (
    <div
      role="alert"
      className="mb-4 rounded-rounded border border-rose-300 bg-rose-50 p-4 text-small-regular text-rose-700"
      data-testid="altapay-payment-notice"
    >
      {MESSAGES[reason] ?? MESSAGES.failed}
    </div>
  )
}

export default AltaPayNotice
