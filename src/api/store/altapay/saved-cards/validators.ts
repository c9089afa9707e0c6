import { z } from "@medusajs/framework/zod"

/** POST /store/altapay/saved-cards: which registration (`pp_altapay_<id>`, else the only one) and the currency the card is for. */
export const StoreAddAltaPaySavedCard = z
  .object({
    provider_id: z.string().min(1).max(200).optional(),
    currency_code: z.string().regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code such as dkk"),
  })
  .strict()
export type StoreAddAltaPaySavedCardType = z.infer<typeof StoreAddAltaPaySavedCard>
