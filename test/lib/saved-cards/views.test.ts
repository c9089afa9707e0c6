/** What the routes send of a saved card: named fields only, so a new column never leaks by itself. */
import { adminSavedCard, storeSavedCard } from "../../../src/lib/saved-cards/views"
import type { SavedCardRecord } from "../../../src/modules/altapay-saved-cards/types"
import { savedCardRecord } from "../../helpers/saved-cards"

// With a column a later version might add: never sent unless named in views.ts.
const record = { ...savedCardRecord({ created_at: new Date("2026-11-27T10:00:00Z") }), credit_card_token: "must-never-leave" } as SavedCardRecord

it("shows the shopper the card's id, registration, masked number, expiry and scheme, nothing more", () => {
  expect(storeSavedCard(record)).toEqual({ id: "apcard_1", provider_id: "pp_altapay_altapay", masked_pan: "411111******1111", expiry: { month: 9, year: 2030 }, scheme: "Visa" })
})

it("shows the admin the terminal, currency and when it was saved as well, but not the agreement or customer", () => {
  const view = adminSavedCard(record)
  expect(Object.keys(view).sort()).toEqual(["created_at", "currency", "expiry", "id", "masked_pan", "provider_id", "scheme", "terminal"])
  expect(view.created_at).toBe("2026-11-27T10:00:00.000Z")
  expect(JSON.stringify(view)).not.toMatch(/agreement-1|must-never-leave|cus_karen/)
})

it("sends a missing scheme as null", () => {
  expect(storeSavedCard({ ...record, scheme: null }).scheme).toBeNull()
})
