/**
 * `npm run bench -- --order-lines`: how often a product reaches the invoice as more than one goods
 * line (issue 31). Random Medusa carts with a promotion on at least one item (the property tests'
 * generator, tools/carts/medusa-carts.ts, with a fixed seed) are built into lines; a cart counts as
 * split when one of its items has two goods lines. "Before" replays the earlier rule on the same
 * rounded amounts: every goods net its quantity does not divide went out as two lines one minor
 * unit apart (quantityParts). DKK stands for Klarna's currencies (2 decimals; JPY and KWD carts
 * give nearly the same counts, rounding being in minor units). Pure computation: no sandbox, no store.
 */
import fc from "fast-check"
import { buildOrderLineSet, lineTotalMinor, type OrderLine } from "../src/altapay"
import { entryMinor, sourceEntries } from "../src/altapay/order-lines/build"
import { quantityParts } from "../src/altapay/order-lines/entry-lines"
import { toMinorUnits } from "../src/lib/medusa-mapping/amounts"
import { cartToLineSource, type CartForLines } from "../src/lib/medusa-mapping/cart-lines"
import { CURRENCIES, cartArb, medusaCart, type Currency } from "../tools/carts/medusa-carts"

const CARTS = 10_000
const SEED = 31

interface Count {
  carts: number
  splitBefore: number
  splitAfter: number
  items: number
  itemsSplitBefore: number
  itemsSplitAfter: number
  /** Of the items split, those with no promotion line (which could carry the remainder). */
  itemsSplitWithoutPromotionBefore: number
  itemsSplitWithoutPromotionAfter: number
}

function countCurrency(currency: Currency): Count {
  const count: Count = {
    carts: 0,
    splitBefore: 0,
    splitAfter: 0,
    items: 0,
    itemsSplitBefore: 0,
    itemsSplitAfter: 0,
    itemsSplitWithoutPromotionBefore: 0,
    itemsSplitWithoutPromotionAfter: 0,
  }
  const promotionCarts = cartArb(currency).filter((g) => g.promotions.length > 0)
  for (const g of fc.sample(promotionCarts, { numRuns: CARTS, seed: SEED })) {
    const cart = medusaCart(g, currency)
    const totalMinor = toMinorUnits(cart.total, currency.code.toUpperCase())
    if (totalMinor <= 0 || !cart.items.some((item: any) => item.adjustments.length > 0)) continue
    const source = cartToLineSource(cart as CartForLines, totalMinor)
    const entries = sourceEntries(source)
    let before = false
    let after = false
    for (const built of buildOrderLineSet(source).entries) {
      if (built.kind !== "item") continue
      const entry = entries.find((e) => e.kind === "item" && e.id === built.id)!
      const lines: OrderLine[] = [...built.lines.main, ...(built.lines.discount ? [built.lines.discount] : [])]
      // The entry's total and tax are the same under either rule; so is their split into goods and promotion.
      const total = lines.reduce((acc, l) => acc + BigInt(lineTotalMinor(l)), 0n)
      const tax = lines.reduce((acc, l) => acc + BigInt(l.taxAmountMinor), 0n)
      const goodsNet = entryMinor(entry.amounts, total, tax).net
      const splitBefore = goodsNet > 0n && quantityParts(goodsNet, entry.spec.quantity).length > 1
      const splitAfter = built.lines.main.length > 1
      count.items++
      if (splitBefore) count.itemsSplitBefore++
      if (splitAfter) count.itemsSplitAfter++
      if (splitBefore && !built.lines.discount) count.itemsSplitWithoutPromotionBefore++
      if (splitAfter && !built.lines.discount) count.itemsSplitWithoutPromotionAfter++
      before ||= splitBefore
      after ||= splitAfter
    }
    count.carts++
    if (before) count.splitBefore++
    if (after) count.splitAfter++
  }
  return count
}

const percent = (part: number, whole: number): string => `${whole ? ((100 * part) / whole).toFixed(1) : "0.0"} %`

/** Prints the counts as a Markdown table, as docs/merchant.md quotes it. */
export function orderLineSplits(): void {
  const c = countCurrency(CURRENCIES.dkk)
  console.log(`DKK carts with a promotion on at least one item: ${c.carts} of ${CARTS} drawn (seed ${SEED})`)
  const rows = [
    ["Figure", "Before", "After"],
    ["Carts with a product on two goods lines", percent(c.splitBefore, c.carts), percent(c.splitAfter, c.carts)],
    ["Items (in those carts) on two goods lines", percent(c.itemsSplitBefore, c.items), percent(c.itemsSplitAfter, c.items)],
    ["... of them with a promotion line", String(c.itemsSplitBefore - c.itemsSplitWithoutPromotionBefore), String(c.itemsSplitAfter - c.itemsSplitWithoutPromotionAfter)],
    ["... of them without one", String(c.itemsSplitWithoutPromotionBefore), String(c.itemsSplitWithoutPromotionAfter)],
  ]
  rows.forEach((cells, i) => {
    console.log(`| ${cells.join(" | ")} |`)
    if (i === 0) console.log(`|${cells.map(() => "---").join("|")}|`)
  })
}
