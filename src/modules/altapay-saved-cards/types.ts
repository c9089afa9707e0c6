/** A stored saved card as the module answers it. Never a token, never a full card number. */
export interface SavedCardRecord {
  id: string
  customer_id: string
  provider_id: string
  agreement_id: string
  masked_pan: string
  expiry_month: number
  expiry_year: number
  scheme: string | null
  terminal: string
  currency: string
  created_at: Date | string
}

/** What a card is saved with (after AltaPay set up the agreement). */
export type SavedCardInput = Omit<SavedCardRecord, "id" | "created_at">
