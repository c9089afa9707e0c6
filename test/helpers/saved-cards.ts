/** A saved card as the saved-cards module stores it, for tests of what is shown of it. */
import type { SavedCardRecord } from "../../src/modules/altapay-saved-cards/types"

export function savedCardRecord(overrides: Partial<SavedCardRecord> = {}): SavedCardRecord {
  return {
    id: "apcard_1",
    customer_id: "cus_karen",
    provider_id: "pp_altapay_altapay",
    agreement_id: "agreement-1",
    masked_pan: "411111******1111",
    expiry_month: 9,
    expiry_year: 2030,
    scheme: "Visa",
    terminal: "Shop DKK Terminal",
    currency: "DKK",
    created_at: "2026-11-27T10:00:00.000Z",
    ...overrides,
  }
}
