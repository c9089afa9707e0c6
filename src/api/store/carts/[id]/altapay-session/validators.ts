import { z } from "@medusajs/framework/zod"

/**
 * POST /store/carts/:id/altapay-session takes no input: the amount, the currency and the order
 * lines all come from the cart on the server. An empty JSON object (or no body) is expected.
 */
export const StoreCreateAltaPaySession = z.object({}).strict()
export type StoreCreateAltaPaySessionType = z.infer<typeof StoreCreateAltaPaySession>
