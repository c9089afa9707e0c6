/**
 * What the routes answer of a saved card: picked field by field (never the record spread), so a
 * column added to the model later is not sent until someone adds it here on purpose.
 */
import type { SavedCardRecord } from "../../modules/altapay-saved-cards/types"

export interface CardExpiry {
  month: number
  year: number
}

/** The shopper's view (GET /store/altapay/saved-cards): enough to recognise and choose the card. */
export interface StoreSavedCard {
  id: string
  provider_id: string
  masked_pan: string
  expiry: CardExpiry
  scheme: string | null
}

/** The admin's view (customer page): the shopper's, plus where and when it was saved. */
export interface AdminSavedCard extends StoreSavedCard {
  terminal: string
  currency: string
  created_at: string
}

/** What a delete answers (store and admin). */
export interface SavedCardDeleted {
  id: string
  object: "altapay_saved_card"
  deleted: true
}

export const savedCardDeleted = (id: string): SavedCardDeleted => ({ id, object: "altapay_saved_card", deleted: true })

export function storeSavedCard(card: SavedCardRecord): StoreSavedCard {
  return { id: card.id, provider_id: card.provider_id, masked_pan: card.masked_pan, expiry: { month: card.expiry_month, year: card.expiry_year }, scheme: card.scheme ?? null }
}

export function adminSavedCard(card: SavedCardRecord): AdminSavedCard {
  return { ...storeSavedCard(card), terminal: card.terminal, currency: card.currency, created_at: new Date(card.created_at).toISOString() }
}
