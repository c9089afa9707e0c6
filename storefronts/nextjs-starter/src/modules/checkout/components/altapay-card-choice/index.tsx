"use client"

import { AltaPayLanguage, altapayText } from "@lib/util/altapay-i18n"
import {
  AltaPaySavedCard,
  savedCardExpiry,
  savedCardName,
} from "@lib/util/altapay-saved-card"

/** A saved card's id, or null for a new card on AltaPay's page (saved when `saveCard`). */
export type AltaPayCardChoiceValue = {
  savedCardId: string | null
  saveCard: boolean
}

/**
 * Above "Place order" for a signed-in customer (medusa-payment-altapay storefront kit): pay with
 * one of their saved cards, or a new card on AltaPay's page, optionally saved for next time.
 */
const AltaPayCardChoice = ({
  cards,
  canSave,
  language,
  value,
  onChange,
}: {
  cards: AltaPaySavedCard[]
  canSave: boolean
  language: AltaPayLanguage
  value: AltaPayCardChoiceValue
  onChange: (value: AltaPayCardChoiceValue) => void
}) => {
  if (!cards.length && !canSave) {
    return null
  }

  return (
    <fieldset
      className="mb-6 flex flex-col gap-y-2 text-small-regular"
      data-testid="altapay-card-choice"
    >
      {cards.length > 0 && (
        <>
          <legend className="txt-medium-plus text-ui-fg-base mb-2">
            {altapayText(language, "payWith")}
          </legend>
          {cards.map((card) => (
            <label
              key={card.id}
              className="flex items-center gap-x-2 cursor-pointer"
            >
              <input
                type="radio"
                name="altapay-card"
                checked={value.savedCardId === card.id}
                onChange={() =>
                  onChange({ savedCardId: card.id, saveCard: false })
                }
                data-testid="altapay-saved-card-option"
              />
              <span>{savedCardName(card, language)}</span>
              <span className="text-ui-fg-subtle">
                {altapayText(language, "cardExpires", {
                  expiry: savedCardExpiry(card),
                })}
              </span>
            </label>
          ))}
          <label className="flex items-center gap-x-2 cursor-pointer">
            <input
              type="radio"
              name="altapay-card"
              checked={value.savedCardId === null}
              onChange={() =>
                onChange({ savedCardId: null, saveCard: value.saveCard })
              }
              data-testid="altapay-new-card-option"
            />
            <span>{altapayText(language, "newCard")}</span>
          </label>
        </>
      )}
      {canSave && value.savedCardId === null && (
        <label className="flex items-center gap-x-2 cursor-pointer">
          <input
            type="checkbox"
            checked={value.saveCard}
            onChange={(event) =>
              onChange({ savedCardId: null, saveCard: event.target.checked })
            }
            data-testid="altapay-save-card-checkbox"
          />
          <span>{altapayText(language, "saveCard")}</span>
        </label>
      )}
    </fieldset>
  )
}

export default AltaPayCardChoice
