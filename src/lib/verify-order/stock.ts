/**
 * Whether Medusa's inventory still has every item of the cart, asked the way Medusa asks when it
 * adds an item and completes a cart: its own confirmVariantInventoryWorkflow over the cart's
 * variants, at the stock locations of the cart's sales channel (variants without managed
 * inventory, or allowing backorders, always pass). Read-only: nothing is reserved here; Medusa
 * reserves when it completes the cart, after AltaPay took the money.
 */
import type { ConfirmVariantInventoryWorkflowInputDTO, MedusaContainer } from "@medusajs/framework/types"
import { confirmVariantInventoryWorkflow } from "@medusajs/medusa/core-flows"

/** What the check reads of each item's variant (the fields Medusa's prepareConfirmInventoryInput reads). */
export const CART_FIELDS_FOR_STOCK = [
  "sales_channel_id",
  "items.id",
  "items.variant_id",
  "items.quantity",
  "items.variant.id",
  "items.variant.manage_inventory",
  "items.variant.allow_backorder",
  "items.variant.inventory_items.inventory_item_id",
  "items.variant.inventory_items.variant_id",
  "items.variant.inventory_items.required_quantity",
  "items.variant.inventory_items.inventory.location_levels.stocked_quantity",
  "items.variant.inventory_items.inventory.location_levels.reserved_quantity",
  "items.variant.inventory_items.inventory.location_levels.raw_stocked_quantity",
  "items.variant.inventory_items.inventory.location_levels.raw_reserved_quantity",
  "items.variant.inventory_items.inventory.location_levels.location_id",
  "items.variant.inventory_items.inventory.location_levels.stock_locations.id",
  "items.variant.inventory_items.inventory.location_levels.stock_locations.name",
  "items.variant.inventory_items.inventory.location_levels.stock_locations.sales_channels.id",
  "items.variant.inventory_items.inventory.location_levels.stock_locations.sales_channels.name",
]

export interface CartForStock {
  sales_channel_id?: string | null
  items?: Array<{ id: string; variant_id?: string | null; quantity: unknown; variant?: ({ id: string } & Record<string, unknown>) | null } | null> | null
}

/** Undefined when Medusa's inventory covers the cart, else Medusa's reason (for the merchant's log). */
export async function stockShortfall(scope: MedusaContainer, cart: CartForStock): Promise<string | undefined> {
  const items = (cart.items ?? []).flatMap((item) => (item?.variant_id && item.variant ? [item] : []))
  const variants = [...new Map(items.map((item) => [item.variant!.id, item.variant!])).values()]
  if (variants.length === 0) return undefined
  // The variants are as query read them: the shape Medusa's own callers pass.
  const input = {
    sales_channel_id: cart.sales_channel_id ?? "",
    variants,
    items: items.map((item) => ({ id: item.id, variant_id: item.variant_id!, quantity: item.quantity })),
  } as unknown as ConfirmVariantInventoryWorkflowInputDTO
  const { errors } = await confirmVariantInventoryWorkflow(scope).run({ input, throwOnError: false })
  if (errors.length === 0) return undefined
  const error = errors[0]?.error as { message?: unknown } | undefined
  return typeof error?.message === "string" ? error.message : "Medusa's inventory does not cover the cart"
}
