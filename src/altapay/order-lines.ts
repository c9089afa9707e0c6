/**
 * AltaPay order lines: build them from a cart, check them against the reference's rules, and
 * encode them for the Checkout API (JSON numbers) and the gateway (form fields of decimal text).
 *
 * Lines stay in integer minor units. Rates, quantities and discount percentages are JS numbers,
 * but money is never computed from them with floats: each is read back as the exact decimal it
 * prints as (`String(n)`, the shortest round-trip text) and used as a scaled BigInt.
 */
import { z } from "zod"
import { AltaPayValidationError, type ValidationIssue } from "./errors"
import { allocate, currencyInfo, decimalToMinor, divRound, minorToDecimal, minorToNumber } from "./money"
import { GOODS_TYPES, type GoodsType, type OrderLine } from "./types"

/** Field length limits from the reference, in characters (Unicode code points). */
export const ORDER_LINE_LIMITS = {
  description: 255,
  itemId: 100,
  unitCode: 50,
  imageUrl: 255,
  productUrl: 255,
} as const

// ---------------------------------------------------------------------------------------------
// Exact decimals for the non-money numbers (quantity, taxPercent, discount)

/** value = units / 10^scale */
interface Decimal {
  units: bigint
  scale: number
}

const POW10 = Array.from({ length: 32 }, (_, i) => 10n ** BigInt(i))
const pow10 = (n: number): bigint => POW10[n] ?? 10n ** BigInt(n)

/** The exact decimal a finite JS number prints as (handles exponent notation such as 1e-7). */
function decimalOf(n: number): Decimal | undefined {
  if (typeof n !== "number" || !Number.isFinite(n)) return undefined
  if (Number.isSafeInteger(n)) return { units: BigInt(n), scale: 0 }
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(n))
  if (!match) return undefined
  const [, sign, whole, fraction = "", exponent = "0"] = match
  let units = BigInt(whole + fraction)
  let scale = fraction.length - Number(exponent)
  if (scale < 0) {
    units *= pow10(-scale)
    scale = 0
  }
  return { units: sign ? -units : units, scale }
}

function decimalText({ units, scale }: Decimal): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0")
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, "")
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`
}

function addDecimals(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale)
  return { units: a.units * pow10(scale - a.scale) + b.units * pow10(scale - b.scale), scale }
}

/** Plain decimal text of a finite number, never with an exponent: 1e-7 -> "0.0000001". */
export function plainNumberText(n: number): string {
  const decimal = decimalOf(n)
  if (!decimal) throw new RangeError(`${String(n)} is not a finite number`)
  return decimalText(decimal)
}

/** Length in Unicode code points, which is what AltaPay counts as characters. */
export function codePointLength(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

// ---------------------------------------------------------------------------------------------
// Totals

const ZERO: Decimal = { units: 0n, scale: 0 }

function lineFactors(line: OrderLine, path: string): { quantity: Decimal; discount: Decimal } {
  const issues: ValidationIssue[] = []
  if (!Number.isSafeInteger(line.unitPriceMinor)) {
    issues.push({ field: `${path}.unitPriceMinor`, message: "must be an integer amount in minor units" })
  }
  if (!Number.isSafeInteger(line.taxAmountMinor)) {
    issues.push({ field: `${path}.taxAmountMinor`, message: "must be an integer amount in minor units" })
  }
  const quantity = decimalOf(line.quantity)
  if (!quantity || quantity.units <= 0n) {
    issues.push({ field: `${path}.quantity`, message: "must be a number greater than zero" })
  }
  const discount = line.discountPercent === undefined ? ZERO : decimalOf(line.discountPercent)
  if (!discount || discount.units < 0n || discount.units > 100n * pow10(discount.scale)) {
    issues.push({ field: `${path}.discountPercent`, message: "must be a percentage from 0 to 100" })
  }
  if (issues.length > 0 || !quantity || !discount) throw validationError("Order line cannot be totalled", issues)
  return { quantity, discount }
}

/**
 * What AltaPay charges for one line, in minor units:
 * (unitPrice * quantity + taxAmount) * (1 - discount/100), rounded half away from zero.
 * Decimal quantities (allowed by the reference) are handled exactly.
 */
export function lineTotalMinor(line: OrderLine, path = "orderLine"): number {
  const { quantity, discount } = lineFactors(line, path)
  const quantityScale = pow10(quantity.scale)
  const discountScale = pow10(discount.scale)
  const numerator =
    (BigInt(line.unitPriceMinor) * quantity.units + BigInt(line.taxAmountMinor) * quantityScale) *
    (100n * discountScale - discount.units)
  return toSafeNumber(divRound(numerator, quantityScale * 100n * discountScale), `${path}`)
}

/** The tax part of lineTotalMinor: taxAmount reduced by the line discount. */
function lineTaxMinor(line: OrderLine, path: string): bigint {
  const { discount } = lineFactors(line, path)
  const discountScale = pow10(discount.scale)
  return divRound(BigInt(line.taxAmountMinor) * (100n * discountScale - discount.units), 100n * discountScale)
}

export function orderLinesTotalMinor(lines: readonly OrderLine[]): number {
  let total = 0n
  lines.forEach((line, i) => {
    total += BigInt(lineTotalMinor(line, `orderLines.${i}`))
  })
  return toSafeNumber(total, "orderLines")
}

// ---------------------------------------------------------------------------------------------
// Validation

export interface ValidateOrderLinesOptions {
  /** ISO 4217 code of the payment; must be known. */
  currency: string
  /** When given, the lines must total exactly this (partial captures and refunds require it). */
  expectedTotalMinor?: number
}

/**
 * Checks lines against the reference's rules and throws ONE AltaPayValidationError listing every
 * problem, each named by path (`orderLines.2.itemId`). Returns normally when the lines are valid.
 */
export function validateOrderLines(lines: readonly OrderLine[], opts: ValidateOrderLinesOptions): void {
  const issues: ValidationIssue[] = []
  try {
    currencyInfo(opts.currency)
  } catch {
    issues.push({ field: "currency", message: `unknown ISO 4217 currency ${String(opts.currency)}` })
  }
  issues.push(...orderLineIssues(lines, opts.expectedTotalMinor))
  if (issues.length > 0) throw validationError("Order lines are invalid", issues)
}

/** Every rule broken by `lines`, without throwing (validateOrderLines minus the currency check). */
export function orderLineIssues(lines: readonly OrderLine[], expectedTotalMinor?: number): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  if (!Array.isArray(lines)) return [{ field: "orderLines", message: "must be an array" }]
  const firstIndexOfId = new Map<string, number>()
  let totallable = true

  lines.forEach((line: OrderLine, i) => {
    const p = `orderLines.${i}`
    const add = (field: string, message: string) => issues.push({ field: `${p}.${field}`, message })
    if (typeof line !== "object" || line === null) {
      issues.push({ field: p, message: "must be an object" })
      totallable = false
      return
    }
    const before = issues.length

    requiredText(line.description, ORDER_LINE_LIMITS.description, (m) => add("description", m))
    requiredText(line.itemId, ORDER_LINE_LIMITS.itemId, (m) => add("itemId", m))
    if (typeof line.itemId === "string" && line.itemId.trim() !== "") {
      const first = firstIndexOfId.get(line.itemId)
      if (first === undefined) firstIndexOfId.set(line.itemId, i)
      else add("itemId", `must be unique within the order; orderLines.${first}.itemId is also "${line.itemId}"`)
    }

    if (typeof line.quantity !== "number" || !Number.isFinite(line.quantity) || !(line.quantity > 0)) {
      add("quantity", "must be a number greater than zero")
    }
    const handling = line.goodsType === "handling"
    if (!Number.isSafeInteger(line.unitPriceMinor)) {
      add("unitPriceMinor", "must be an integer amount in minor units")
    } else if (!handling && !(line.unitPriceMinor > 0)) {
      add("unitPriceMinor", 'must be greater than zero unless goodsType is "handling" (discounts and credits)')
    }
    if (!Number.isSafeInteger(line.taxAmountMinor)) {
      add("taxAmountMinor", "must be an integer amount in minor units")
    } else if (!handling && line.taxAmountMinor < 0) {
      add("taxAmountMinor", 'must not be negative unless goodsType is "handling"')
    }
    if (typeof line.taxPercent !== "number" || !Number.isFinite(line.taxPercent) || line.taxPercent < 0) {
      add("taxPercent", "must be a finite number, zero or more")
    }
    if (line.discountPercent !== undefined) {
      const d = line.discountPercent
      if (typeof d !== "number" || !Number.isFinite(d) || d < 0 || d > 100) {
        add("discountPercent", "must be a percentage from 0 to 100")
      }
    }
    if (line.goodsType !== undefined && !(GOODS_TYPES as readonly string[]).includes(line.goodsType)) {
      add("goodsType", `must be one of ${GOODS_TYPES.join(", ")}`)
    }
    if (line.unitCode !== undefined) {
      requiredText(line.unitCode, ORDER_LINE_LIMITS.unitCode, (m) => add("unitCode", m))
    }
    for (const key of ["imageUrl", "productUrl"] as const) {
      const value = line[key]
      if (value === undefined) continue
      if (typeof value !== "string") add(key, "must be a string")
      else if (codePointLength(value) > ORDER_LINE_LIMITS[key]) {
        add(key, `must be at most ${ORDER_LINE_LIMITS[key]} characters (is ${codePointLength(value)})`)
      } else if (!isAbsoluteHttpUrl(value)) add(key, "must be a full http(s) URL")
    }
    // Only the amount fields matter for the total; text problems do not stop us checking it.
    if (issues.slice(before).some((x) => /\.(quantity|unitPriceMinor|taxAmountMinor|discountPercent)$/.test(x.field))) {
      totallable = false
    }
  })

  if (expectedTotalMinor !== undefined) {
    if (!Number.isSafeInteger(expectedTotalMinor)) {
      issues.push({ field: "expectedTotalMinor", message: "must be an integer amount in minor units" })
    } else if (totallable) {
      const total = lines.reduce((sum, line, i) => sum + BigInt(lineTotalMinor(line, `orderLines.${i}`)), 0n)
      if (total !== BigInt(expectedTotalMinor)) {
        issues.push({
          field: "orderLines",
          message: `lines total ${total} minor units but the amount is ${expectedTotalMinor}`,
        })
      }
    }
  }
  return issues
}

function requiredText(value: unknown, max: number, report: (message: string) => void): void {
  if (typeof value !== "string" || value.trim() === "") return report("is required")
  const length = codePointLength(value)
  if (length > max) report(`must be at most ${max} characters (is ${length})`)
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === "https:" || url.protocol === "http:"
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------
// Text

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" })

/**
 * Trims `text` and shortens it to at most `maxChars` code points, ending in "…" when cut (if the
 * ellipsis fits). Cuts between grapheme clusters, so an emoji or a letter with its accent is never
 * split; falls back to code points only when a single cluster is longer than the limit.
 */
export function truncateText(text: string, maxChars: number): string {
  if (!Number.isInteger(maxChars) || maxChars < 0) throw new RangeError("maxChars must be a non-negative integer")
  const trimmed = text.trim()
  if (trimmed.length <= maxChars) return trimmed // UTF-16 length is never below the code point count
  const points = Array.from(trimmed)
  if (points.length <= maxChars) return trimmed
  const budget = maxChars >= 2 ? maxChars - 1 : maxChars
  let cut = 0 // in UTF-16 units
  for (let i = 0; i < budget; i++) cut += points[i].length
  // `containing` asks ICU for the one cluster around the cut instead of walking the whole text.
  const cluster = graphemes.segment(trimmed).containing(cut)
  if (cluster && cluster.index > 0 && cluster.index < cut) cut = cluster.index
  const kept = trimmed.slice(0, cut).trimEnd()
  return maxChars >= 2 ? `${kept}…` : kept
}

/** `id` itself when free, else `id-2`, `id-3`, ... kept within the itemId limit. Records the result. */
function claimItemId(id: string, taken: Set<string>): string {
  const base = truncateText(id, ORDER_LINE_LIMITS.itemId) || "line"
  let candidate = base
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `-${n}`
    candidate = `${truncateText(base, ORDER_LINE_LIMITS.itemId - suffix.length)}${suffix}`
  }
  taken.add(candidate)
  return candidate
}

// ---------------------------------------------------------------------------------------------
// Compensation

/**
 * Appends a `handling` line for the difference between the lines' total and `amountMinor`, so
 * AltaPay (and invoice providers that compare both) see exactly the amount captured or refunded.
 * No line is added when they already agree.
 */
export function withCompensationLine(lines: readonly OrderLine[], amountMinor: number, currency: string): OrderLine[] {
  currencyInfo(currency)
  if (!Number.isSafeInteger(amountMinor)) {
    throw validationError("Invalid amount", [{ field: "amount", message: "must be an integer amount in minor units" }])
  }
  const diff = toSafeNumber(BigInt(amountMinor) - BigInt(orderLinesTotalMinor(lines)), "amount")
  if (diff === 0) return [...lines]
  const taken = new Set(lines.map((line) => line.itemId))
  return [
    ...lines,
    {
      itemId: claimItemId("rounding", taken),
      description: "Rounding adjustment",
      goodsType: "handling",
      quantity: 1,
      unitPriceMinor: diff,
      taxAmountMinor: 0,
      taxPercent: 0,
    },
  ]
}

// ---------------------------------------------------------------------------------------------
// Cart -> lines

export interface OrderLineSourceItem {
  id: string
  title: string
  sku?: string | null
  /** Positive integer; items with quantity 0 are left out. */
  quantity: number
  /** As stored by the shop: gross when taxInclusive, else net. */
  unitPriceMinor: number
  taxInclusive?: boolean
  /** Percent, e.g. 25 or 12.5; several rates add up. */
  taxRates: Array<{ rate: number; code?: string }>
  /** Promotions on this line in total (positive), with the same tax-inclusiveness as unitPriceMinor. */
  discountMinor?: number
  goodsType?: "item" | "physical" | "digital" | "gift_card"
  imageUrl?: string | null
  productUrl?: string | null
  unitCode?: string
}

export interface OrderLineSourceShipping {
  id: string
  name: string
  amountMinor: number
  taxInclusive?: boolean
  taxRates: Array<{ rate: number }>
  discountMinor?: number
}

export interface OrderLineSourceCredit {
  id: string
  label: string
  /** Positive: reduces the total (gift-card redemption, store credit). */
  amountMinor: number
}

/** A framework-free view of a cart or order; the Medusa provider maps its data onto this. */
export interface OrderLineSource {
  /** ISO 4217 alphabetic code. */
  currency: string
  /** The amount that will be sent; the lines total exactly this. */
  totalMinor: number
  items: OrderLineSourceItem[]
  shipping?: OrderLineSourceShipping[]
  credits?: OrderLineSourceCredit[]
}

const ITEM_GOODS_TYPES = ["item", "physical", "digital", "gift_card"] as const

/**
 * Turns a cart into AltaPay order lines that total `source.totalMinor` exactly and pass
 * validateOrderLines: one line per item (net unit price, tax of the whole line), one `handling`
 * line per item discount, `shipment` lines, `handling` lines for credits, and a rounding line for
 * whatever per-line rounding leaves over.
 */
export function buildOrderLines(source: OrderLineSource): OrderLine[] {
  const problems = sourceIssues(source)
  if (problems.length > 0) throw validationError("Cannot build order lines", problems)

  const lines: OrderLine[] = []
  const taken = new Set<string>()
  const skuCount = new Map<string, number>()
  for (const item of source.items) {
    const sku = item.sku?.trim()
    if (sku) skuCount.set(sku, (skuCount.get(sku) ?? 0) + 1)
  }

  for (const item of source.items) {
    const rate = sumRates(item.taxRates)
    const taxPercent = Number(decimalText(rate))
    const sku = item.sku?.trim()
    const idSource = sku && skuCount.get(sku) === 1 ? sku : item.id
    let itemId = idSource
    const title = truncateText(item.title, ORDER_LINE_LIMITS.description)

    if (item.quantity > 0 && item.unitPriceMinor > 0) {
      const quantity = BigInt(item.quantity)
      const { net, tax } = splitAmount(BigInt(item.unitPriceMinor) * quantity, item.taxInclusive === true, rate)
      // A net line total that quantity does not divide leaves a remainder of at most quantity/2
      // minor units; the rounding line absorbs it, so taxAmount stays the true tax of the line.
      let unitNet = divRound(net, quantity)
      if (unitNet < 1n) unitNet = 1n
      itemId = claimItemId(idSource, taken)
      const line: OrderLine = {
        description: title || itemId,
        itemId,
        quantity: item.quantity,
        unitPriceMinor: toSafeNumber(unitNet, "items"),
        taxAmountMinor: toSafeNumber(tax, "items"),
        taxPercent,
        goodsType: item.goodsType ?? "item",
      }
      const unitCode = item.unitCode === undefined ? "" : truncateText(item.unitCode, ORDER_LINE_LIMITS.unitCode)
      if (unitCode) line.unitCode = unitCode
      const imageUrl = usableUrl(item.imageUrl, ORDER_LINE_LIMITS.imageUrl)
      if (imageUrl) line.imageUrl = imageUrl
      const productUrl = usableUrl(item.productUrl, ORDER_LINE_LIMITS.productUrl)
      if (productUrl) line.productUrl = productUrl
      lines.push(line)
    }
    pushDiscount(lines, taken, itemId, title || itemId, item.discountMinor, item.taxInclusive === true, rate)
  }

  for (const shipping of source.shipping ?? []) {
    const rate = sumRates(shipping.taxRates)
    const name = truncateText(shipping.name, ORDER_LINE_LIMITS.description) || "Shipping"
    let itemId = shipping.id
    // A free shipping method is left out: a zero unit price breaks "greater than zero".
    if (shipping.amountMinor > 0) {
      const { net, tax } = splitAmount(BigInt(shipping.amountMinor), shipping.taxInclusive === true, rate)
      itemId = claimItemId(shipping.id, taken)
      lines.push({
        description: name,
        itemId,
        quantity: 1,
        unitPriceMinor: toSafeNumber(net < 1n ? 1n : net, "shipping"),
        taxAmountMinor: toSafeNumber(tax, "shipping"),
        taxPercent: Number(decimalText(rate)),
        goodsType: "shipment",
      })
    }
    pushDiscount(lines, taken, itemId, name, shipping.discountMinor, shipping.taxInclusive === true, rate)
  }

  for (const credit of source.credits ?? []) {
    if (credit.amountMinor === 0) continue
    lines.push({
      description: truncateText(credit.label, ORDER_LINE_LIMITS.description) || "Credit",
      itemId: claimItemId(credit.id, taken),
      quantity: 1,
      unitPriceMinor: -credit.amountMinor,
      taxAmountMinor: 0,
      taxPercent: 0,
      goodsType: "handling",
    })
  }

  const result = withCompensationLine(lines, source.totalMinor, source.currency)
  validateOrderLines(result, { currency: source.currency, expectedTotalMinor: source.totalMinor })
  return result
}

/** A promotion as its own `handling` line: negative net price and negative tax, same rate. */
function pushDiscount(
  lines: OrderLine[],
  taken: Set<string>,
  forItemId: string,
  forTitle: string,
  discountMinor: number | undefined,
  taxInclusive: boolean,
  rate: Decimal
): void {
  if (!discountMinor) return
  const { net, tax } = splitAmount(BigInt(discountMinor), taxInclusive, rate)
  lines.push({
    description: truncateText(`Discount: ${forTitle}`, ORDER_LINE_LIMITS.description),
    itemId: claimItemId(`discount-${forItemId}`, taken),
    quantity: 1,
    unitPriceMinor: toSafeNumber(-net, "discountMinor"),
    taxAmountMinor: toSafeNumber(-tax, "discountMinor"),
    taxPercent: Number(decimalText(rate)),
    goodsType: "handling",
  })
}

function sumRates(rates: ReadonlyArray<{ rate: number }>): Decimal {
  return rates.reduce<Decimal>((sum, { rate }) => addDecimals(sum, decimalOf(rate) ?? ZERO), ZERO)
}

/**
 * Net and tax of an amount in minor units, rounded half away from zero:
 * tax-inclusive net = gross * 100 / (100 + rate); tax-exclusive tax = net * rate / 100.
 */
function splitAmount(amount: bigint, taxInclusive: boolean, rate: Decimal): { net: bigint; tax: bigint } {
  const hundred = 100n * pow10(rate.scale)
  if (taxInclusive) {
    const net = divRound(amount * hundred, hundred + rate.units)
    return { net, tax: amount - net }
  }
  return { net: amount, tax: divRound(amount * rate.units, hundred) }
}

/** A URL AltaPay accepts, or undefined: too long or relative URLs are dropped, never cut. */
function usableUrl(value: string | null | undefined, max: number): string | undefined {
  const url = value?.trim()
  if (!url || codePointLength(url) > max || !isAbsoluteHttpUrl(url)) return undefined
  return url
}

function sourceIssues(source: OrderLineSource): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const add = (field: string, message: string) => issues.push({ field, message })
  try {
    currencyInfo(source.currency)
  } catch {
    add("currency", `unknown ISO 4217 currency ${String(source.currency)}`)
  }
  if (!Number.isSafeInteger(source.totalMinor) || source.totalMinor < 0) {
    add("totalMinor", "must be a non-negative integer amount in minor units")
  }
  const amount = (value: unknown, field: string, optional = false) => {
    if (optional && value === undefined) return
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      add(field, "must be a non-negative integer amount in minor units")
    }
  }
  const rates = (value: unknown, field: string) => {
    if (!Array.isArray(value)) return add(field, "must be an array")
    value.forEach((r: { rate?: unknown }, j) => {
      if (typeof r?.rate !== "number" || !Number.isFinite(r.rate) || r.rate < 0) {
        add(`${field}.${j}.rate`, "must be a finite percentage, zero or more")
      }
    })
  }
  const id = (value: unknown, field: string) => {
    if (typeof value !== "string" || value.trim() === "") add(field, "is required")
  }
  const text = (value: unknown, field: string) => {
    if (typeof value !== "string") add(field, "must be a string")
  }

  if (!Array.isArray(source.items)) add("items", "must be an array")
  else {
    source.items.forEach((item, i) => {
      const p = `items.${i}`
      id(item.id, `${p}.id`)
      text(item.title, `${p}.title`)
      if (item.sku !== undefined && item.sku !== null) text(item.sku, `${p}.sku`)
      if (!Number.isSafeInteger(item.quantity) || item.quantity < 0) add(`${p}.quantity`, "must be a whole number, zero or more")
      amount(item.unitPriceMinor, `${p}.unitPriceMinor`)
      if (
        Number.isSafeInteger(item.quantity) &&
        Number.isSafeInteger(item.unitPriceMinor) &&
        !Number.isSafeInteger(item.quantity * item.unitPriceMinor)
      ) {
        add(`${p}.unitPriceMinor`, "unit price times quantity is too large")
      }
      rates(item.taxRates, `${p}.taxRates`)
      amount(item.discountMinor, `${p}.discountMinor`, true)
      if (item.goodsType !== undefined && !(ITEM_GOODS_TYPES as readonly string[]).includes(item.goodsType)) {
        add(`${p}.goodsType`, `must be one of ${ITEM_GOODS_TYPES.join(", ")}`)
      }
      if (item.unitCode !== undefined) text(item.unitCode, `${p}.unitCode`)
    })
  }
  if (source.shipping !== undefined && !Array.isArray(source.shipping)) add("shipping", "must be an array")
  ;(Array.isArray(source.shipping) ? source.shipping : []).forEach((s, i) => {
    const p = `shipping.${i}`
    id(s.id, `${p}.id`)
    text(s.name, `${p}.name`)
    amount(s.amountMinor, `${p}.amountMinor`)
    rates(s.taxRates, `${p}.taxRates`)
    amount(s.discountMinor, `${p}.discountMinor`, true)
  })
  if (source.credits !== undefined && !Array.isArray(source.credits)) add("credits", "must be an array")
  ;(Array.isArray(source.credits) ? source.credits : []).forEach((c, i) => {
    const p = `credits.${i}`
    id(c.id, `${p}.id`)
    text(c.label, `${p}.label`)
    amount(c.amountMinor, `${p}.amountMinor`)
  })
  return issues
}

// ---------------------------------------------------------------------------------------------
// Partial capture / refund without item lines

/**
 * One `item` line worth exactly `amountMinor`, for a partial capture or refund when no item-level
 * lines are given: its net and tax split the amount in the proportion of the original lines' net
 * and tax totals (largest remainder, exact), and taxPercent is their effective rate to 2 decimals.
 */
export function proportionalAdjustmentLine(
  lines: readonly OrderLine[],
  amountMinor: number,
  opts: { itemId?: string; description?: string } = {}
): OrderLine[] {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) {
    throw validationError("Invalid amount", [{ field: "amount", message: "must be an integer amount greater than zero" }])
  }
  let netWeight = 0n
  let taxWeight = 0n
  lines.forEach((line, i) => {
    const total = BigInt(lineTotalMinor(line, `orderLines.${i}`))
    const tax = lineTaxMinor(line, `orderLines.${i}`)
    netWeight += total - tax
    taxWeight += tax
  })
  // Discounts and credits can only shrink a part; a part cannot go below nothing.
  if (netWeight < 0n) netWeight = 0n
  if (taxWeight < 0n) taxWeight = 0n
  const [netPart, taxPart] = allocate(amountMinor, [
    toSafeNumber(netWeight, "orderLines"),
    toSafeNumber(taxWeight, "orderLines"),
  ])
  // An `item` line needs a positive unit price; move a minor unit from tax when the split gave none.
  const unitPriceMinor = Math.max(netPart, 1)
  const taxAmountMinor = taxPart - (unitPriceMinor - netPart)
  const hundredths = netWeight > 0n ? divRound(taxWeight * 10000n, netWeight) : 0n
  const line: OrderLine = {
    description: truncateText(opts.description ?? "Partial refund", ORDER_LINE_LIMITS.description) || "Partial refund",
    itemId: truncateText(opts.itemId ?? "partial-refund", ORDER_LINE_LIMITS.itemId) || "partial-refund",
    quantity: 1,
    unitPriceMinor,
    taxAmountMinor,
    taxPercent: Number(decimalText({ units: hundredths, scale: 2 })),
    goodsType: "item",
  }
  const issues = orderLineIssues([line], amountMinor)
  if (issues.length > 0) throw validationError("Cannot build the adjustment line", issues)
  return [line]
}

// ---------------------------------------------------------------------------------------------
// Wire formats

/** One order line as the Checkout API's session body carries it (amounts as JSON numbers). */
export interface CheckoutOrderLine {
  description: string
  itemId: string
  quantity: number
  unitPrice: number
  taxAmount: number
  taxPercent: number
  goodsType?: GoodsType
  discount?: number
  unitCode?: string
  imageUrl?: string
  productUrl?: string
}

/** Lines for `order.orderLines` of a Checkout API session. Validates first. */
export function toCheckoutOrderLines(lines: readonly OrderLine[], currency: string): CheckoutOrderLine[] {
  validateOrderLines(lines, { currency })
  return lines.map((line) => {
    const out: CheckoutOrderLine = {
      description: line.description,
      itemId: line.itemId,
      quantity: line.quantity,
      unitPrice: minorToNumber(line.unitPriceMinor, currency),
      taxAmount: minorToNumber(line.taxAmountMinor, currency),
      taxPercent: line.taxPercent,
    }
    if (line.goodsType !== undefined) out.goodsType = line.goodsType
    if (line.discountPercent !== undefined) out.discount = line.discountPercent
    if (line.unitCode !== undefined) out.unitCode = line.unitCode
    if (line.imageUrl !== undefined) out.imageUrl = line.imageUrl
    if (line.productUrl !== undefined) out.productUrl = line.productUrl
    return out
  })
}

/**
 * Lines as the gateway's form fields (`orderLines[0][unitPrice]` = "9.66"): amounts as decimal text
 * with the currency's exponent, other numbers as plain decimal text (never exponent notation).
 * Validates first.
 */
export function toGatewayOrderLineFields(lines: readonly OrderLine[], currency: string): Record<string, string> {
  validateOrderLines(lines, { currency })
  const fields: Record<string, string> = {}
  lines.forEach((line, i) => {
    const set = (name: string, value: string | undefined) => {
      if (value !== undefined) fields[`orderLines[${i}][${name}]`] = value
    }
    set("description", line.description)
    set("itemId", line.itemId)
    set("quantity", plainNumberText(line.quantity))
    set("unitPrice", minorToDecimal(line.unitPriceMinor, currency))
    set("taxAmount", minorToDecimal(line.taxAmountMinor, currency))
    set("taxPercent", plainNumberText(line.taxPercent))
    set("goodsType", line.goodsType)
    set("discount", line.discountPercent === undefined ? undefined : plainNumberText(line.discountPercent))
    set("unitCode", line.unitCode)
    set("imageUrl", line.imageUrl)
    set("productUrl", line.productUrl)
  })
  return fields
}

const decimalInput = z.union([z.number(), z.string().trim().regex(/^[+-]?(\d+\.?\d*|\.\d+)$/, "must be a decimal number")])
const optionalDecimal = decimalInput.nullish()
const optionalText = z.string().nullish()

const checkoutOrderLineSchema = z.object({
  description: z.string(),
  itemId: z.string(),
  quantity: decimalInput,
  unitPrice: decimalInput,
  taxAmount: decimalInput,
  taxPercent: optionalDecimal,
  goodsType: z.enum(GOODS_TYPES).nullish(),
  discount: optionalDecimal,
  unitCode: optionalText,
  imageUrl: optionalText,
  productUrl: optionalText,
})

/**
 * Reads Checkout-API-shaped lines (JSON numbers or decimal strings) back into minor units, e.g.
 * lines handed over by other code. Required fields are enforced; every problem is reported at
 * once. A missing taxPercent is inferred from taxAmount / (unitPrice * quantity), to 2 decimals.
 */
export function fromCheckoutOrderLines(json: unknown, currency: string): OrderLine[] {
  const parsed = z.array(checkoutOrderLineSchema).safeParse(json)
  if (!parsed.success) {
    throw validationError(
      "Order lines are invalid",
      parsed.error.issues.map((issue) => ({
        field: ["orderLines", ...issue.path.map(String)].join("."),
        message: issue.message,
      }))
    )
  }
  const issues: ValidationIssue[] = []
  const lines = parsed.data.map((raw, i): OrderLine => {
    const p = `orderLines.${i}`
    const minor = (value: string | number, field: string): number => {
      try {
        return decimalToMinor(value, currency, `${p}.${field}`)
      } catch (error) {
        if (error instanceof AltaPayValidationError) issues.push(...error.issues)
        else throw error
        return 0
      }
    }
    const unitPriceMinor = minor(raw.unitPrice, "unitPrice")
    const taxAmountMinor = minor(raw.taxAmount, "taxAmount")
    const quantity = Number(raw.quantity)
    const line: OrderLine = {
      description: raw.description,
      itemId: raw.itemId,
      quantity,
      unitPriceMinor,
      taxAmountMinor,
      taxPercent:
        raw.taxPercent === undefined || raw.taxPercent === null
          ? inferTaxPercent(unitPriceMinor, quantity, taxAmountMinor)
          : Number(raw.taxPercent),
    }
    if (raw.goodsType) line.goodsType = raw.goodsType
    if (raw.discount !== undefined && raw.discount !== null) line.discountPercent = Number(raw.discount)
    if (raw.unitCode !== undefined && raw.unitCode !== null) line.unitCode = raw.unitCode
    if (raw.imageUrl !== undefined && raw.imageUrl !== null) line.imageUrl = raw.imageUrl
    if (raw.productUrl !== undefined && raw.productUrl !== null) line.productUrl = raw.productUrl
    return line
  })
  if (issues.length > 0) throw validationError("Order lines are invalid", issues)
  validateOrderLines(lines, { currency })
  return lines
}

function inferTaxPercent(unitPriceMinor: number, quantity: number, taxAmountMinor: number): number {
  const q = decimalOf(quantity)
  if (!q || q.units <= 0n || unitPriceMinor <= 0) return 0
  const hundredths = divRound(BigInt(taxAmountMinor) * 10000n * pow10(q.scale), BigInt(unitPriceMinor) * q.units)
  return hundredths < 0n ? 0 : Number(decimalText({ units: hundredths, scale: 2 }))
}

// ---------------------------------------------------------------------------------------------

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

function toSafeNumber(value: bigint, field: string): number {
  if (value > MAX_SAFE || value < -MAX_SAFE) {
    throw validationError("Amount out of range", [{ field, message: "amount is too large" }])
  }
  return Number(value)
}

function validationError(title: string, issues: ValidationIssue[]): AltaPayValidationError {
  const shown = issues.slice(0, 5).map((x) => `${x.field} ${x.message}`)
  const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more` : ""
  return new AltaPayValidationError(`${title}: ${shown.join("; ")}${more}.`, issues)
}
