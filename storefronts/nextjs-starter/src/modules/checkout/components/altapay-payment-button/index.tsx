"use client"

import { altapayPaymentPage } from "@lib/data/altapay"
import { Button } from "@modules/common/components/ui"
import { useState } from "react"
import ErrorMessage from "../error-message"

/**
 * Place order with AltaPay (medusa-payment-altapay storefront kit): after the starter's own
 * checks (notReady) the customer goes to AltaPay's payment page. The order is placed by the Medusa
 * plugin when AltaPay posts the customer's return to it (or its notification callback, whichever
 * comes first); AltaPay then sends the customer to src/app/api/altapay/landing.
 */
const AltaPayPaymentButton = ({
  notReady,
  "data-testid": dataTestId,
}: {
  notReady: boolean
  "data-testid"?: string
}) => {
  const [submitting, setSubmitting] = useState(false)
  const [errorMessage, setErrorMessage] = useState<string | null>(null)

  const handlePayment = async () => {
    setSubmitting(true)
    setErrorMessage(null)
    const page = await altapayPaymentPage().catch(() => ({
      error: "The payment could not be started. Please try again.",
    }))
    if ("url" in page) {
      // Keep the spinner while the browser leaves for AltaPay.
      window.location.assign(page.url)
      return
    }
    setErrorMessage(page.error)
    setSubmitting(false)
  }

  return (
    <>
      <Button
        disabled={notReady}
        isLoading={submitting}
        onClick={handlePayment}
        size="large"
        data-testid={dataTestId}
      >
        Place order
      </Button>
      <ErrorMessage
        error={errorMessage}
        data-testid="altapay-payment-error-message"
      />
    </>
  )
}

export default AltaPayPaymentButton
