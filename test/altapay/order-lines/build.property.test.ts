import fc from "fast-check"
import { AltaPayValidationError } from "../../../src/altapay/errors"
import { decimalToMinor, wireAmountProblem } from "../../../src/altapay/money"
import {
  ORDER_LINE_LIMITS,
  buildOrderLineSet,
  buildOrderLines,
  lineTotalMinor,
  orderLinesTotalMinor,
  proportionalAdjustmentLine,
  sourceTotalMinor,
  textLength,
  toCheckoutOrderLines,
  toGatewayOrderLineFields,
  truncateText,
  validateOrderLines,
  type BuiltEntry,
  type OrderLineSource,
} from "../../../src/altapay/order-lines"
import type { OrderLine } from "../../../src/altapay/types"
import { refusedForPrecision } from "../../helpers/issues"

const RUNS = 10_000
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const CONTROL = /\p{Cc}/u
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" })

// Rates as a shop stores them.
const RATES = [{ rate: 0 }, { rate: 6 }, { rate: 12.5 }, { rate: 25 }, { rate: 7.75 }, { rate: 8.875 }, { rate: 19 }, { rate: 0.5 }, { rate: 10 }]
const rates = fc.array(fc.constantFrom(...RATES), { maxLength: 2 })

// Texts with control characters between other text, as a pasted title may hold.
const withControls = (maxParts: number) =>
  fc
    .array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 12 }), fc.constantFrom("\u0000", "\n", "\r\n", "\t", "\u0007", "\u007F", "\u0085", "\u009F")), {
      maxLength: maxParts,
    })
    .map((parts) => parts.join(""))
const text = (maxLength: number, controls = withControls(Math.ceil(maxLength / 4))) =>
  fc.oneof(
    fc.constantFrom("T-shirt", "Kaffekop", "Rødgrød med fløde", "お茶", "😀 emoji", "   ", ""),
    fc.string({ unit: "grapheme", maxLength }),
    fc.string({ unit: "grapheme-ascii", minLength: maxLength - 5, maxLength: maxLength + 20 }),
    controls
  )
const id = fc.oneof(
  fc.constantFrom("i1", "i2", "item_1", "rounding", "discount-i1", "SKU-1", "sm_1", "gc_1"),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 120 }).filter((s) => s.trim() !== "")
)
const url = fc.option(
  fc.constantFrom("https://cdn.example.com/a.png", "http://shop.example.com/p/1", "/relative.png", "ftp://example.com/x", `https://cdn.example.com/${"x".repeat(240)}`),
  { nil: undefined }
)

const skuText = text(110, withControls(28))

const item = fc
  .record({
    id,
    title: text(260),
    sku: fc.option(fc.oneof(fc.constantFrom("SKU-1", "SKU-2", "i1"), skuText), { nil: undefined }),
    quantity: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constant(0)),
    unitPriceMinor: fc.oneof(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 1, max: 10 })),
    taxInclusive: fc.boolean(),
    rates,
    discountShare: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1000 })),
    goodsType: fc.option(fc.constantFrom("item", "physical", "digital", "gift_card") as fc.Arbitrary<"item">, { nil: undefined }),
    imageUrl: url,
    productUrl: url,
    unitCode: fc.option(text(60), { nil: undefined }),
  })
  .map((r) => {
    const gross = r.unitPriceMinor * r.quantity
    return {
      ...r,
      // A promotion never exceeds the line it applies to.
      discountMinor: Number((BigInt(gross) * BigInt(r.discountShare)) / 1000n),
    }
  })

const shipping = fc
  .record({
    id,
    name: text(260),
    amountMinor: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20_000 })),
    taxInclusive: fc.boolean(),
    rates,
    discountShare: fc.oneof(fc.constant(0), fc.constant(1000), fc.integer({ min: 0, max: 1000 })),
  })
  .map((r) => ({ ...r, discountMinor: Number((BigInt(r.amountMinor) * BigInt(r.discountShare)) / 1000n) }))

const cart = fc.record({
  currency: fc.constantFrom("JPY", "DKK", "EUR", "USD", "KWD", "BHD"),
  items: fc.array(item, { maxLength: 6 }),
  shipping: fc.array(shipping, { maxLength: 2 }),
  creditShares: fc.array(fc.record({ id, label: text(40), share: fc.integer({ min: 0, max: 1000 }) }), { maxLength: 2 }),
  // Most carts are charged their own total; some another amount, which is refused.
  offset: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: -50, max: 50 })),
})

type Cart = typeof cart extends fc.Arbitrary<infer T> ? T : never

/** The cart as a source; credits never exceed what is left to pay, and the total is the cart's own. */
function toSource(c: Cart): OrderLineSource {
  const source: OrderLineSource = {
    currency: c.currency,
    totalMinor: 0,
    items: c.items.map((i) => ({
      id: i.id,
      title: i.title,
      sku: i.sku,
      quantity: i.quantity,
      unitPriceMinor: i.unitPriceMinor,
      taxInclusive: i.taxInclusive,
      taxRates: i.rates.map((r) => ({ rate: r.rate })),
      discountMinor: i.discountMinor,
      goodsType: i.goodsType,
      imageUrl: i.imageUrl,
      productUrl: i.productUrl,
      unitCode: i.unitCode,
    })),
    shipping: c.shipping.map((s) => ({
      id: s.id,
      name: s.name,
      amountMinor: s.amountMinor,
      taxInclusive: s.taxInclusive,
      taxRates: s.rates.map((r) => ({ rate: r.rate })),
      discountMinor: s.discountMinor,
    })),
  }
  // One minor unit under the rounded total is never more than the exact total.
  let left = BigInt(Math.max(0, sourceTotalMinor(source) - 1))
  source.credits = c.creditShares.map((cr) => {
    const amountMinor = (left * BigInt(cr.share)) / 1000n
    left -= amountMinor
    return { id: cr.id, label: cr.label, amountMinor: Number(amountMinor) }
  })
  source.totalMinor = sourceTotalMinor(source)
  return source
}

/** Re-reads the gateway form fields the way AltaPay would: decimal text back to minor units. */
function totalOfGatewayFields(fields: Record<string, string>, currency: string): number {
  const byIndex = new Map<number, Record<string, string>>()
  for (const [key, value] of Object.entries(fields)) {
    const m = /^orderLines\[(\d+)\]\[(\w+)\]$/.exec(key)
    if (!m) throw new Error(`unexpected field ${key}`)
    const index = Number(m[1])
    byIndex.set(index, { ...byIndex.get(index), [m[2]]: value })
  }
  let total = 0
  for (const f of byIndex.values()) {
    check(/^\d+(\.\d+)?$/.test(f.taxPercent), "taxPercent is plain decimal text", f)
    total += lineTotalMinor({
      description: f.description,
      itemId: f.itemId,
      quantity: Number(f.quantity),
      unitPriceMinor: decimalToMinor(f.unitPrice, currency),
      taxAmountMinor: decimalToMinor(f.taxAmount, currency),
      taxPercent: Number(f.taxPercent),
      discountPercent: f.discount === undefined ? undefined : Number(f.discount),
    })
  }
  return total
}

function refusedOrTotal(build: () => OrderLine[]): "refused" | number | "other error" {
  try {
    return orderLinesTotalMinor(build())
  } catch (error) {
    return error instanceof AltaPayValidationError && error.issues.some((i) => i.field === "totalMinor") ? "refused" : "other error"
  }
}

/** A plain check: jest's expect() costs more than the code under test at 10,000 runs. */
function check(ok: boolean, what: string, detail?: unknown): void {
  if (!ok) throw new Error(`${what}${detail === undefined ? "" : `: ${JSON.stringify(detail)}`}`)
}

/**
 * A product is one goods line for its whole quantity when its promotion line takes money off (that
 * line carries what the rounded unit price misses); otherwise at most two, one minor unit apart.
 */
function checkOneGoodsLine(entry: BuiltEntry, quantity: number): void {
  const { main, discount } = entry.lines
  if (main.length === 0 || main[0].goodsType === "handling") return
  check(main.length <= 2 && (main.length === 1 || main[1].unitPriceMinor - main[0].unitPriceMinor === 1), "at most two goods lines, one minor unit apart", main)
  if (entry.kind !== "item" || !discount || !(discount.unitPriceMinor < 0 && lineTotalMinor(discount) < 0)) return
  check(main.length === 1 && main[0].quantity === quantity, "a product with a promotion line is one goods line", entry.lines)
}

describe("order lines for any cart", () => {
  it("total exactly the amount charged, pass validation and survive both wire formats", () => {
    fc.assert(
      fc.property(cart, (c) => {
        const source = toSource(c)
        if (c.offset !== 0) {
          // The cart's exact total rounded the other way is fine; any other amount is refused.
          const other = { ...source, totalMinor: Math.max(0, source.totalMinor + c.offset) }
          const outcome = refusedOrTotal(() => buildOrderLines(other))
          check(
            outcome === "refused" || (Math.abs(other.totalMinor - source.totalMinor) <= 1 && outcome === other.totalMinor),
            "lines for another amount than the cart's are refused",
            other.totalMinor
          )
          return
        }
        const { lines, entries } = buildOrderLineSet(source)
        const { currency, totalMinor } = source

        check(orderLinesTotalMinor(lines) === totalMinor, "lines total the amount", { totalMinor, lines })
        validateOrderLines(lines, { currency, expectedTotalMinor: totalMinor }) // throws on any issue
        // AltaPay takes 2 decimals: a 3-decimal currency's lines go out only when every amount fits,
        // and are otherwise refused as a whole, never rounded.
        const fits = lines.every((l) => !wireAmountProblem(l.unitPriceMinor, currency) && !wireAmountProblem(l.taxAmountMinor, currency))
        if (fits) {
          check(totalOfGatewayFields(toGatewayOrderLineFields(lines, currency), currency) === totalMinor, "gateway fields total the amount")
          toCheckoutOrderLines(lines, currency).forEach((wire, i) => {
            check(decimalToMinor(wire.unitPrice, currency) === lines[i].unitPriceMinor, "checkout unitPrice round-trips", wire)
            check(decimalToMinor(wire.taxAmount, currency) === lines[i].taxAmountMinor, "checkout taxAmount round-trips", wire)
          })
        } else {
          check(
            refusedForPrecision(() => toGatewayOrderLineFields(lines, currency)),
            "gateway lines that do not fit 2 decimals are refused",
            lines
          )
          check(
            refusedForPrecision(() => toCheckoutOrderLines(lines, currency)),
            "checkout lines that do not fit 2 decimals are refused",
            lines
          )
        }

        check(new Set(lines.map((l) => l.itemId)).size === lines.length, "item ids are unique")
        for (const l of lines) {
          check(textLength(l.description) <= ORDER_LINE_LIMITS.description, "description fits", l)
          check(textLength(l.itemId) <= ORDER_LINE_LIMITS.itemId, "itemId fits", l)
          check(l.unitCode === undefined || textLength(l.unitCode) <= ORDER_LINE_LIMITS.unitCode, "unitCode fits", l)
          check(l.imageUrl === undefined || textLength(l.imageUrl) <= ORDER_LINE_LIMITS.imageUrl, "imageUrl fits", l)
          check(l.productUrl === undefined || textLength(l.productUrl) <= ORDER_LINE_LIMITS.productUrl, "productUrl fits", l)
          check(!CONTROL.test(l.description) && !CONTROL.test(l.itemId) && !CONTROL.test(l.unitCode ?? ""), "no control characters", l)
          check(!LONE_SURROGATE.test(l.description) && !LONE_SURROGATE.test(l.itemId), "no half characters", l)
          check(l.goodsType === "handling" || l.unitPriceMinor > 0, "only handling lines are zero or negative", l)
          check(Number.isSafeInteger(l.unitPriceMinor) && Number.isSafeInteger(l.taxAmountMinor), "integer minor units", l)
        }
        check(!lines.some((l) => l.description === "Rounding adjustment"), "no rounding line")
        // Entries come in the source's order: items, then shipping methods.
        entries.forEach((entry, i) => checkOneGoodsLine(entry, Math.max(source.items[i]?.quantity ?? 1, 1)))
      }),
      { numRuns: RUNS }
    )
  })
})

describe("proportionalAdjustmentLine for any order", () => {
  const orderLine = fc.oneof(
    fc.record({
      quantity: fc.integer({ min: 1, max: 20 }),
      unitPriceMinor: fc.integer({ min: 1, max: 1_000_000 }),
      taxAmountMinor: fc.integer({ min: 0, max: 500_000 }),
      goodsType: fc.constant("item" as const),
    }),
    fc.record({
      quantity: fc.constant(1),
      unitPriceMinor: fc.integer({ min: -100_000, max: 0 }),
      taxAmountMinor: fc.integer({ min: -25_000, max: 0 }),
      goodsType: fc.constant("handling" as const),
    })
  )

  it("always totals the amount exactly with a positive unit price", () => {
    fc.assert(
      fc.property(fc.array(orderLine, { maxLength: 5 }), fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 1_000_000_000 })), (raw, amountMinor) => {
        const lines: OrderLine[] = raw.map((r, i) => ({ ...r, itemId: `l${i}`, description: `Line ${i}`, taxPercent: 25 }))
        const adjustment = proportionalAdjustmentLine(lines, amountMinor, { itemId: "partial-refund", description: "Partial refund" })
        check(adjustment.length === 1, "one line")
        check(orderLinesTotalMinor(adjustment) === amountMinor, "totals the amount", adjustment)
        check(adjustment[0].unitPriceMinor > 0 && adjustment[0].taxAmountMinor >= 0, "positive net, no negative tax", adjustment)
        validateOrderLines(adjustment, { currency: "DKK", expectedTotalMinor: amountMinor })
      }),
      { numRuns: RUNS }
    )
  })
})

describe("truncateText for any text", () => {
  it("fits the limit, keeps a prefix and never leaves half a character", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "grapheme", maxLength: 80 }), withControls(12)), fc.integer({ min: 0, max: 60 }), (input, max) => {
        const out = truncateText(input, max)
        check(textLength(out) <= max, "fits", out)
        check(!LONE_SURROGATE.test(out), "no half characters", out)
        check(!CONTROL.test(out), "no control characters", out)
        // Uncut, the output is the cleaned input (each run of control characters one space, trimmed;
        // it may itself end in "…"); cut, it is a prefix of that plus the "…" truncateText appends
        // when the limit leaves room for one.
        const cleaned = input.replace(/\p{Cc}+/gu, " ").trim()
        const cut = out !== cleaned
        const body = cut && max >= 2 ? out.slice(0, -1) : out
        check(!cut || !(max >= 2) || out.endsWith("…"), "a cut ends in …", out)
        check(cleaned.startsWith(body), "a prefix of the cleaned input", out)
        // Between clusters, unless the first cluster alone is longer than the room left for it.
        const clusters = [...graphemes.segment(cleaned)]
        const room = max >= 2 ? max - 1 : max
        if (cut && clusters.length > 0 && clusters[0].segment.length <= room) {
          check(body === "" || clusters.some((c) => c.index + c.segment.length === body.length), "cut between clusters", out)
        }
      }),
      { numRuns: RUNS }
    )
  })
})
