"use client"

import { deleteAltaPaySavedCard } from "@lib/data/altapay-saved-cards"
import {
  AltaPayLanguage,
  AltaPayText,
  altapayText,
} from "@lib/util/altapay-i18n"
import {
  AltaPaySavedCard,
  savedCardExpiry,
  savedCardName,
} from "@lib/util/altapay-saved-card"
import { CreditCard, Spinner, Trash } from "@medusajs/icons"
import ErrorMessage from "@modules/checkout/components/error-message"
import { useState } from "react"

/** The customer's saved cards with Delete (medusa-payment-altapay storefront kit), in the page's language. */
const AltaPaySavedCards = ({
  cards: initial,
  language,
}: {
  cards: AltaPaySavedCard[]
  language: AltaPayLanguage
}) => {
  const [cards, setCards] = useState(initial)
  const [deleting, setDeleting] = useState<string | null>(null)
  const [error, setError] = useState<AltaPayText | null>(null)

  const handleDelete = async (id: string) => {
    setDeleting(id)
    setError(null)
    const result = await deleteAltaPaySavedCard(id).catch(
      (): { error?: AltaPayText } => ({ error: { key: "deleteFailed" } }),
    )
    if (result.error) {
      setError(result.error)
    } else {
      setCards((current) => current.filter((card) => card.id !== id))
    }
    setDeleting(null)
  }

  if (!cards.length) {
    return (
      <p className="text-base-regular" data-testid="no-saved-cards">
        {altapayText(language, "noSavedCards")}
      </p>
    )
  }

  return (
    <div className="flex flex-col gap-y-4">
      <ul className="flex flex-col gap-y-4">
        {cards.map((card) => (
          <li
            key={card.id}
            className="flex items-center justify-between border rounded-rounded p-5"
            data-testid="saved-card"
          >
            <div className="flex items-center gap-x-3">
              <CreditCard />
              <div className="flex flex-col">
                <span className="text-base-semi" data-testid="saved-card-name">
                  {savedCardName(card, language)}
                </span>
                <span className="text-small-regular text-ui-fg-subtle">
                  {altapayText(language, "savedCardExpires", {
                    expiry: savedCardExpiry(card),
                  })}
                </span>
              </div>
            </div>
            <button
              type="button"
              className="flex gap-x-1 items-center text-small-regular text-ui-fg-subtle hover:text-ui-fg-base"
              onClick={() => handleDelete(card.id)}
              disabled={deleting !== null}
              aria-label={altapayText(language, "deleteCard", {
                card: savedCardName(card, language),
              })}
              data-testid="delete-saved-card-button"
            >
              {deleting === card.id ? (
                <Spinner className="animate-spin" />
              ) : (
                <Trash />
              )}
              <span>{altapayText(language, "delete")}</span>
            </button>
          </li>
        ))}
      </ul>
      <ErrorMessage
        error={error && altapayText(language, error.key, error.values)}
        data-testid="saved-cards-error-message"
      />
    </div>
  )
}

export default AltaPaySavedCards
