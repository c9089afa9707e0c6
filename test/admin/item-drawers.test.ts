import { chosenQuantities } from "../../src/admin/lib/item-quantities"

const rows = [
  { line_item_id: "ordli_mug", left: 2 },
  { line_item_id: "ordli_tea", left: 1 },
]

describe("the quantities typed into an item drawer", () => {
  it("sends the items with a quantity, an empty box meaning none", () => {
    expect(chosenQuantities(rows, { ordli_mug: "2", ordli_tea: "" })).toEqual({ items: [{ line_item_id: "ordli_mug", quantity: 2 }], invalid: false })
    expect(chosenQuantities(rows, {})).toEqual({ items: [], invalid: false })
  })

  it("refuses more than is left, fractions and negative numbers", () => {
    expect(chosenQuantities(rows, { ordli_mug: "3" }).invalid).toBe(true)
    expect(chosenQuantities(rows, { ordli_tea: "0.5" }).invalid).toBe(true)
    expect(chosenQuantities(rows, { ordli_tea: "-1" }).invalid).toBe(true)
    expect(chosenQuantities(rows, { ordli_tea: "x" }).invalid).toBe(true)
  })
})
