import { z } from "@medusajs/framework/zod"

/**
 * POST /store/carts/:id/altapay-session: the amount, the currency and the order lines all come
 * from the cart on the server. The only input is which AltaPay registration to pay with
 * (`pp_altapay_<id>`), needed when the store registers the provider once per terminal.
 */
export const StoreCreateAltaPaySession = z
  .object({
    provider_id: z.string().min(1).max(200).optional(),
  })
  .strict()
export type StoreCreateAltaPaySessionType = z.infer<typeof StoreCreateAltaPaySession>
