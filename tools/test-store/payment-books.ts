/**
 * One AltaPay payment's books in minor units: AltaPay's (the sandbox's transaction, the witness)
 * beside Medusa's payment (its captures and refunds) and what its order booked as transactions.
 * Medusa keeps exact amounts: its totals are rounded once, half up, as AltaPay's are.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import { decimalToMinor } from "../../src/altapay"
import type { Sandbox } from "../../src/sandbox"
import { toMinorUnits } from "../../src/lib/medusa-mapping/amounts"

/** An order line as AltaPay got it (JSON on the Checkout API, form text on the gateway). */
export type WireLine = Record<string, string | number | undefined>

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0)

/** A line's total in minor units, exact however large, refusing a discount field or a quantity that is not whole. */
export function wireLineMinor(line: WireLine, currency: string): number {
  expect({ itemId: line.itemId, discount: Number(line.discount ?? 0), quantityWhole: Number.isInteger(Number(line.quantity)) }).toEqual({
    itemId: line.itemId,
    discount: 0,
    quantityWhole: true,
  })
  const unit = BigInt(decimalToMinor(String(line.unitPrice), currency))
  return Number(unit * BigInt(String(line.quantity)) + BigInt(decimalToMinor(String(line.taxAmount ?? 0), currency)))
}

export const wireLinesMinor = (lines: WireLine[], currency: string): number => sum(lines.map((l) => wireLineMinor(l, currency)))

/** The tax AltaPay's wire lines carry, in minor units. */
export const wireTaxMinor = (lines: WireLine[], currency: string): number => sum(lines.map((l) => decimalToMinor(String(l.taxAmount ?? 0), currency)))

/** An item or shipping method of a Medusa order, and which AltaPay lines are its. */
export interface LinesOfEntry {
  name: string
  match: (line: WireLine) => boolean
  medusa: { total?: unknown; tax_total?: unknown; tax_lines?: Array<{ rate: number | string }> | null }
}

/**
 * Per entry, whether its AltaPay lines total Medusa's `total` and `tax_total` rounded once, at its
 * own rate (its tax lines' rates summed): "rounded" and ["its rate"] where they do, the figures where not.
 */
export function linesAgainstEntries(lines: WireLine[], entries: LinesOfEntry[], currency: string) {
  return entries.map(({ name, match, medusa }) => {
    const own = lines.filter(match)
    const rate = sum((medusa.tax_lines ?? []).map((t) => Number(t.rate)))
    const total = wireLinesMinor(own, currency)
    const tax = wireTaxMinor(own, currency)
    return {
      name,
      total: roundedOnce(total, medusa.total) ? "rounded" : { lines: total, medusa: String(medusa.total) },
      tax: roundedOnce(tax, medusa.tax_total) ? "rounded" : { lines: tax, medusa: String(medusa.tax_total) },
      rates: [...new Set(own.map((l) => Number(l.taxPercent)))].map((r) => (r === rate ? "its rate" : r)),
    }
  })
}

/** What linesAgainstEntries gives when every entry agrees. */
export const entriesAgree = (entries: LinesOfEntry[]) => entries.map(({ name }) => ({ name, total: "rounded", tax: "rounded", rates: ["its rate"] }))

/** Whether `minor` is exact Medusa `amount` (2 decimals) rounded down or up: a total rounded once may be either. */
export function roundedOnce(minor: number, amount: unknown): boolean {
  const exact = MathBN.convert(amount as never).shiftedBy(2)
  return [Number(exact.integerValue(3).toFixed()), Number(exact.integerValue(2).toFixed())].includes(minor)
}

/** What AltaPay keeps of a transaction (minor units): its reservation until released, less refunds. */
export function heldAtAltaPay(sandbox: Sandbox, transactionId: string | undefined): number {
  const t = transactionId ? sandbox.transaction(transactionId) : undefined
  if (!t) return 0
  return (t.status === "released" ? t.capturedMinor : t.reservedMinor) - t.refundedMinor
}

export interface PaymentOfOrder {
  orderId: string
  paymentId: string
  transactionId: string
  currency: string
}

export async function paymentBooks(container: MedusaContainer, sandbox: Sandbox, of: PaymentOfOrder) {
  const minor = (amount: unknown) => toMinorUnits(amount as never, of.currency)
  const exact = (xs: Array<{ amount: unknown }>) => MathBN.sum(0, ...xs.map((x) => x.amount as never))
  const { data } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order", fields: ["transactions.reference", "transactions.amount"], filters: { id: of.orderId } })
  const booked = (data[0] as { transactions: Array<{ reference: string; amount: unknown }> }).transactions
  const [payment] = await container.resolve(Modules.PAYMENT).listPayments({ id: of.paymentId }, { relations: ["captures", "refunds"] })
  const t = sandbox.transaction(of.transactionId)!
  return {
    transaction: t,
    altapay: { capturedMinor: t.capturedMinor, refundedMinor: t.refundedMinor, captures: t.captures.map((c) => c.amountMinor), refunds: t.refunds.map((r) => r.amountMinor) },
    medusa: {
      capturedMinor: minor(exact(payment.captures ?? [])),
      refundedMinor: minor(exact(payment.refunds ?? [])),
      bookedCapturesMinor: minor(exact(booked.filter((b) => b.reference === "capture"))),
      bookedRefundsMinor: minor(MathBN.mult(-1, exact(booked.filter((b) => b.reference === "refund")))),
      captures: (payment.captures ?? []).map((c) => minor(c.amount)),
      refunds: (payment.refunds ?? []).map((r) => minor(r.amount)),
    },
    /** The order lines of each capture and refund AltaPay made, as sent (empty where none were). */
    captureLines: t.captures.map((c) => (c.orderLines ?? []) as WireLine[]),
    refundLines: t.refunds.map((r) => (r.orderLines ?? []) as WireLine[]),
  }
}
export type PaymentBooks = Awaited<ReturnType<typeof paymentBooks>>

/**
 * AltaPay's captured and refunded totals are Medusa's, as its payment records them and as its order
 * booked them; each capture's and refund's lines total its amount; nothing is refunded beyond what
 * was captured, nor captured beyond the reservation. The books, for further checks.
 */
export async function expectBooksAgree(container: MedusaContainer, sandbox: Sandbox, of: PaymentOfOrder): Promise<PaymentBooks> {
  const b = await paymentBooks(container, sandbox, of)
  const a = b.altapay
  const withLines = (amounts: number[], lines: WireLine[][]) => amounts.map((amount, i) => [amount, lines[i].length ? wireLinesMinor(lines[i], of.currency) : amount])
  expect({
    captured: [b.medusa.capturedMinor, b.medusa.bookedCapturesMinor, sum(a.captures)],
    refunded: [b.medusa.refundedMinor, b.medusa.bookedRefundsMinor, sum(a.refunds)],
    captureLines: withLines(a.captures, b.captureLines),
    refundLines: withLines(a.refunds, b.refundLines),
  }).toEqual({
    captured: [a.capturedMinor, a.capturedMinor, a.capturedMinor],
    refunded: [a.refundedMinor, a.refundedMinor, a.refundedMinor],
    captureLines: a.captures.map((amount) => [amount, amount]),
    refundLines: a.refunds.map((amount) => [amount, amount]),
  })
  expect(a.refundedMinor).toBeLessThanOrEqual(a.capturedMinor)
  expect(a.capturedMinor).toBeLessThanOrEqual(b.transaction.reservedMinor)
  return b
}

/** expectBooksAgree, and Medusa's captures and refunds are AltaPay's one for one (amounts, in any order). */
export async function expectMovesAgree(container: MedusaContainer, sandbox: Sandbox, of: PaymentOfOrder): Promise<PaymentBooks> {
  const b = await expectBooksAgree(container, sandbox, of)
  expect({ captures: [...b.medusa.captures].sort(), refunds: [...b.medusa.refunds].sort() }).toEqual({
    captures: [...b.altapay.captures].sort(),
    refunds: [...b.altapay.refunds].sort(),
  })
  return b
}
