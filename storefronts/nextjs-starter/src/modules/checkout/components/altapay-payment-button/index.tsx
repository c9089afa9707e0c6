"use client"

import {
  AltaPayCardOptions,
  AltaPayPaymentPage,
  altapayCardOptions,
  altapayPaymentPage,
  altapaySavedCardPayment,
} from "@lib/data/altapay"
import {
  AltaPayText,
  altapayCartLanguage,
  altapayText,
} from "@lib/util/altapay-i18n"
import { HttpTypes } from "@medusajs/types"
import { Button } from "@modules/common/components/ui"
import { useEffect, useState } from "react"
import AltaPayCardChoice, {
  AltaPayCardChoiceValue,
} from "../altapay-card-choice"
import ErrorMessage from "../error-message"

/**
 * Place order with AltaPay (medusa-payment-altapay storefront kit): after the starter's own
 * checks (notReady) the customer goes to AltaPay's payment page. The order is placed by the Medusa
 * plugin when AltaPay posts the customer's return to it (or its notification callback, whichever
 * comes first); AltaPay then sends the customer to src/app/api/altapay/landing. A signed-in
 * customer may instead pay with a saved card (no AltaPay page unless 3-D Secure asks for one), or
 * have the new card saved. Its texts are in the cart's language (its locale, else its country).
 */
const AltaPayPaymentButton = ({
  cart,
  notReady,
  "data-testid": dataTestId,
}: {
  cart: HttpTypes.StoreCart
  notReady: boolean
  "data-testid"?: string
}) => {
  const language = altapayCartLanguage(cart)
  const [submitting, setSubmitting] = useState(false)
  const [error, setError] = useState<AltaPayText | null>(null)
  const [options, setOptions] = useState<AltaPayCardOptions | null>(null)
  const [choice, setChoice] = useState<AltaPayCardChoiceValue>({
    savedCardId: null,
    saveCard: false,
  })

  useEffect(() => {
    altapayCardOptions()
      .catch(() => ({ cards: [], canSave: false }))
      .then((loaded) => {
        setOptions(loaded)
        // The newest saved card first: the one the customer most likely means.
        setChoice({ savedCardId: loaded.cards[0]?.id ?? null, saveCard: false })
      })
  }, [])

  const handlePayment = async () => {
    setSubmitting(true)
    setError(null)
    const page: AltaPayPaymentPage | undefined = await (choice.savedCardId
      ? altapaySavedCardPayment(choice.savedCardId)
      : altapayPaymentPage({ saveCard: choice.saveCard })
    ).catch((): AltaPayPaymentPage => ({ error: { key: "notStarted" } }))
    if (!page) {
      // Paid with a saved card: Next.js is on its way to the order confirmation.
      return
    }
    if ("url" in page) {
      // Keep the spinner while the browser leaves for AltaPay.
      window.location.assign(page.url)
      return
    }
    setError(page.error)
    setSubmitting(false)
  }

  return (
    <>
      {options && (
        <AltaPayCardChoice
          cards={options.cards}
          canSave={options.canSave}
          language={language}
          value={choice}
          onChange={setChoice}
        />
      )}
      <Button
        disabled={notReady || !options}
        isLoading={submitting}
        onClick={handlePayment}
        size="large"
        data-testid={dataTestId}
      >
        {altapayText(language, "placeOrder")}
      </Button>
      <ErrorMessage
        error={error && altapayText(language, error.key, error.values)}
        data-testid="altapay-payment-error-message"
      />
    </>
  )
}

export default AltaPayPaymentButton
