/** The `items` of the item refund and item capture bodies, checked the same way for both. */
import { z } from "zod"

/** `[{ line_item_id, quantity }]`: whole positive units of an order's items, at most 500 entries. */
export const itemQuantities = z
  .array(z.object({ line_item_id: z.string().min(1), quantity: z.number().int().positive() }).strict())
  .max(500)
  .default([])
