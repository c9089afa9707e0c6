import type { OrderLine } from "../../../src/altapay/types"

/** A valid DKK goods line: 80.00 net + 20.00 tax. */
export const line = (over: Partial<OrderLine> = {}): OrderLine => ({
  description: "T-shirt",
  itemId: "TS-1",
  quantity: 1,
  unitPriceMinor: 8000,
  taxAmountMinor: 2000,
  taxPercent: 25,
  goodsType: "item",
  ...over,
})
