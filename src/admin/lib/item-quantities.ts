/**
 * The quantities an admin typed into an item drawer (refund or capture): what to send and whether
 * the form is valid. Inputs are text (an empty box is 0); the server checks again.
 */

export interface QuantityRow {
  line_item_id: string
  /** The most this row may take: what is still refundable, or still to capture. */
  left: number
}

export interface ChosenQuantities {
  items: Array<{ line_item_id: string; quantity: number }>
  /** A box holds something other than a whole number from 0 to its row's `left`. */
  invalid: boolean
}

export function chosenQuantities(rows: QuantityRow[], entered: Record<string, string>): ChosenQuantities {
  const items: ChosenQuantities["items"] = []
  let invalid = false
  for (const row of rows) {
    const quantity = Number(entered[row.line_item_id] || 0)
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > row.left) invalid = true
    else if (quantity > 0) items.push({ line_item_id: row.line_item_id, quantity })
  }
  return { items, invalid }
}
