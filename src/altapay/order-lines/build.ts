/**
 * A cart -> AltaPay order lines, rounded once at cart level. The cart's exact amounts (Medusa's
 * own totals) are rounded to minor units together: each item's and shipping method's total, each
 * one's tax, the cart's total (`totalMinor`) and the cart's tax total are each their exact value
 * rounded down or up, so the lines add up to the amount sent and their tax to the cart's tax.
 */
import { currencyExponent } from "../money"
import type { OrderLine } from "../types"
import { roundOrScale, roundTable, type TableRow } from "./allocation"
import { decimalText, floor, isInteger, neg, ratioText, roundedNumber, roundHalfUp, sum, ZERO } from "./exact"
import { entryLines, type EntryLineSpec, type EntryLines, type EntryMinor } from "./entry-lines"
import { toSafeMinor, validationError } from "./problems"
import { entryNet, entryTotal, entryTax, exactMinor, itemAmounts, shippingAmounts, sourceIssues, type EntryAmounts, type OrderLineSource } from "./source"
import { ORDER_LINE_LIMITS, claimItemId, truncateText, usableUrl } from "./text"
import { validateOrderLines } from "./validation"
import { TAX_PERCENT_DECIMALS } from "./wire"

/** Prefix of the itemId of credit lines (store credit, gift-card redemption): they are not goods. */
export const CREDIT_ITEM_ID_PREFIX = "credit-"

/** The lines of one cart entry, by the entry's id in the source. */
export interface BuiltEntry {
  kind: "item" | "shipping"
  id: string
  /** Units ordered (1 for a shipping method). */
  quantity: number
  lines: EntryLines
}

export interface BuiltOrderLines {
  lines: OrderLine[]
  entries: BuiltEntry[]
  /** The lines' tax minus the cart's exact tax rounded half up: 0 unless no rounding of the entries reaches it (see roundTable). */
  taxOffMinor: number
}

/**
 * Turns a cart into AltaPay order lines that total `source.totalMinor` exactly and pass
 * validateOrderLines: per item its goods line(s) and a `handling` promotion line, `shipment`
 * lines, and a `handling` line per credit. `totalMinor` must be the cart's exact total rounded down
 * or up; any other amount is refused (lines for another amount would not describe this cart).
 */
export function buildOrderLines(source: OrderLineSource): OrderLine[] {
  return buildOrderLineSet(source).lines
}

/** buildOrderLines, also saying which lines belong to which item and shipping method. */
export function buildOrderLineSet(source: OrderLineSource): BuiltOrderLines {
  const problems = sourceIssues(source)
  if (problems.length > 0) throw validationError("Cannot build order lines", problems)

  const entries = sourceEntries(source)
  const rounded = roundedEntries(source, entries)
  if (!rounded) {
    throw validationError("Cannot build order lines", [
      {
        field: "totalMinor",
        message: `is ${source.totalMinor}, but this cart comes to ${ratioText(exactSourceTotal(source, entries))} minor units: lines can only total that, rounded`,
      },
    ])
  }

  const taken = new Set<string>()
  const built: BuiltEntry[] = []
  const lines: OrderLine[] = []
  entries.forEach((entry, i) => {
    const entryLineSet = entryLines(entry.spec, rounded.entries[i], taken, `${entry.kind === "item" ? "items" : "shipping"}`)
    built.push({ kind: entry.kind, id: entry.id, quantity: entry.quantity, lines: entryLineSet })
    lines.push(...entryLineSet.main, ...(entryLineSet.discount ? [entryLineSet.discount] : []))
  })
  ;(source.credits ?? []).forEach((credit, j) => {
    const amount = rounded.credits[j]
    if (amount === 0n) return
    lines.push({
      description: creditLineDescription(credit.label),
      itemId: claimItemId(`${CREDIT_ITEM_ID_PREFIX}${credit.id}`, taken),
      quantity: 1,
      unitPriceMinor: toSafeMinor(amount, "credits"),
      taxAmountMinor: 0,
      taxPercent: 0,
      goodsType: "handling",
    })
  })

  validateOrderLines(lines, { currency: source.currency, expectedTotalMinor: source.totalMinor })
  return { lines, entries: built, taxOffMinor: Number(rounded.taxOff) }
}

/** Each entry's and each credit's rounded amounts in the lines for `source.totalMinor`. */
interface RoundedEntries {
  entries: EntryMinor[]
  credits: bigint[]
  taxOff: bigint
}

/**
 * The entries' (sourceEntries) and credits' amounts as buildOrderLines rounds them for
 * `source.totalMinor`; undefined when that is not the source's exact total rounded down or up.
 */
export function roundedEntries(source: OrderLineSource, entries: readonly SourceEntry[]): RoundedEntries | undefined {
  const rows = tableRows(source, entries)
  const exactTotal = sum(rows.map((row) => sum([row.net, row.tax])))
  const whole = floor(exactTotal)
  const totalMinor = BigInt(source.totalMinor)
  if (totalMinor !== whole && totalMinor !== whole + (isInteger(exactTotal) ? 0n : 1n)) return undefined
  const table = roundTable(rows, totalMinor, roundHalfUp(sum(rows.map((row) => row.tax))))
  if (!table) return undefined
  return {
    entries: entries.map((entry, i) => entryMinor(entry.amounts, table.rows[i].total, table.rows[i].tax)),
    credits: table.rows.slice(entries.length).map((row) => row.total),
    taxOff: table.taxOff,
  }
}

/** One row per entry, then one per credit (money off, untaxed). */
function tableRows(source: OrderLineSource, entries: readonly SourceEntry[]): TableRow[] {
  const credits = (source.credits ?? []).map((credit) => exactMinor(credit.amountMinor))
  return [...entries.map(({ amounts }) => ({ net: entryNet(amounts), tax: entryTax(amounts) })), ...credits.map((amount) => ({ net: neg(amount), tax: ZERO }))]
}

const exactSourceTotal = (source: OrderLineSource, entries: readonly SourceEntry[]) => sum(tableRows(source, entries).map((row) => sum([row.net, row.tax])))

/**
 * The cart's exact total (items, promotions, tax and shipping as Medusa totals them, less credits)
 * rounded half up: the amount its lines total. Throws for a source buildOrderLines would refuse.
 */
export function sourceTotalMinor(source: Omit<OrderLineSource, "totalMinor">): number {
  const entries = checkedEntries(source)
  const credits = (source.credits ?? []).map((credit) => exactMinor(credit.amountMinor))
  return toSafeMinor(roundHalfUp(sum([...entries.map(({ amounts }) => entryTotal(amounts)), ...credits.map(neg)])), "totalMinor")
}

/** Each item's and shipping method's own total (goods, promotions and tax, as Medusa totals it), rounded half up, by its id. */
export function entryTotalsMinor(source: Omit<OrderLineSource, "totalMinor">): Map<string, number> {
  return new Map(checkedEntries(source).map((entry) => [entry.id, toSafeMinor(roundHalfUp(entryTotal(entry.amounts)), "totalMinor")]))
}

/** The source's entries, for totals of any amount: a source buildOrderLines would refuse throws. */
function checkedEntries(source: Omit<OrderLineSource, "totalMinor">): SourceEntry[] {
  const problems = sourceIssues({ ...source, totalMinor: 0 })
  if (problems.length > 0) throw validationError("Cannot total the cart", problems)
  return sourceEntries({ ...source, totalMinor: 0 })
}

/** The description of a credit's line, as built; a reserved credit line is recognised by it too. */
export const creditLineDescription = (label: string): string => truncateText(label, ORDER_LINE_LIMITS.description) || "Credit"

/** True for the lines buildOrderLines makes for credits: money off the bill, not off the goods. */
export function isCreditLine(line: OrderLine): boolean {
  return line.goodsType === "handling" && line.itemId.startsWith(CREDIT_ITEM_ID_PREFIX)
}

export interface SourceEntry {
  kind: "item" | "shipping"
  id: string
  quantity: number
  amounts: EntryAmounts
  spec: EntryLineSpec
}

/** Items and shipping methods of a source with their exact amounts and how their lines look. */
export function sourceEntries(source: OrderLineSource): SourceEntry[] {
  const exponent = currencyExponent(source.currency)
  const skuCount = new Map<string, number>()
  for (const item of source.items) {
    const sku = item.sku?.trim()
    if (sku) skuCount.set(sku, (skuCount.get(sku) ?? 0) + 1)
  }
  const items = source.items.map((item): SourceEntry => {
    const amounts = itemAmounts(item, exponent)
    const sku = item.sku?.trim()
    const itemId = sku && skuCount.get(sku) === 1 ? sku : item.id
    const extra: SourceEntry["spec"]["extra"] = {}
    const unitCode = item.unitCode === undefined ? "" : truncateText(item.unitCode, ORDER_LINE_LIMITS.unitCode)
    if (unitCode) extra.unitCode = unitCode
    const imageUrl = usableUrl(item.imageUrl, ORDER_LINE_LIMITS.imageUrl)
    if (imageUrl) extra.imageUrl = imageUrl
    const productUrl = usableUrl(item.productUrl, ORDER_LINE_LIMITS.productUrl)
    if (productUrl) extra.productUrl = productUrl
    return {
      kind: "item",
      id: item.id,
      quantity: item.quantity,
      amounts,
      spec: {
        itemId,
        description: truncateText(item.title, ORDER_LINE_LIMITS.description) || truncateText(itemId, ORDER_LINE_LIMITS.description) || "Item",
        quantity: Math.max(item.quantity, 1),
        goodsType: item.goodsType ?? "item",
        taxPercent: taxPercentOf(amounts),
        extra,
      },
    }
  })
  const shipping = (source.shipping ?? []).map((method): SourceEntry => {
    const amounts = shippingAmounts(method, exponent)
    return {
      kind: "shipping",
      id: method.id,
      quantity: 1,
      amounts,
      spec: {
        itemId: method.id,
        description: truncateText(method.name, ORDER_LINE_LIMITS.description) || "Shipping",
        quantity: 1,
        goodsType: "shipment",
        taxPercent: taxPercentOf(amounts),
      },
    }
  })
  return [...items, ...shipping]
}

/**
 * An entry's rounded total and tax, split into goods net, promotion net, goods tax and promotion
 * tax (each its exact value rounded down or up).
 */
export function entryMinor(amounts: EntryAmounts, total: bigint, tax: bigint): EntryMinor {
  const [net, discount] = roundOrScale([amounts.net, neg(amounts.discountNet)], total - tax)
  const [goodsTax, discountTax] = roundOrScale([amounts.tax, neg(amounts.discountTax)], tax)
  return { net, discountNet: -discount, tax: goodsTax, discountTax: -discountTax }
}

const taxPercentOf = (amounts: EntryAmounts): number => roundedNumber(Number(decimalText(amounts.rate)), TAX_PERCENT_DECIMALS)
