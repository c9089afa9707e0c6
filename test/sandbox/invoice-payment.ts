/** A payment on the sandbox's Klarna invoice terminal, made with our client: shared by the invoice tests. */
import type { OrderLine } from "../../src/altapay"
import { INVOICE_METHOD, type SandboxOptions } from "../../src/sandbox"
import { startSandboxAndClient, type SandboxPair } from "../helpers/sandbox"

/** AltaPay's "Partially capture a Klarna payment" lines (a scarf and trousers), plus shipping and a discount. */
export const SCARF: OrderLine = { description: "Yellow scarf", itemId: "0001", quantity: 1, unitPriceMinor: 5000, taxPercent: 10, taxAmountMinor: 500, goodsType: "item" }
export const TROUSERS: OrderLine = {
  description: "Blue trousers, size L",
  itemId: "0002",
  quantity: 1,
  unitPriceMinor: 7500,
  taxPercent: 10,
  taxAmountMinor: 750,
  goodsType: "item",
}
export const SHIPPING: OrderLine = { description: "Shipping", itemId: "ship", quantity: 1, unitPriceMinor: 4001, taxPercent: 25, taxAmountMinor: 1000, goodsType: "shipment" }
export const SOCKS: OrderLine = { description: "Socks", itemId: "0003", quantity: 3, unitPriceMinor: 1000, taxPercent: 25, taxAmountMinor: 750, goodsType: "item" }
export const DISCOUNT: OrderLine = { description: "Discount", itemId: "disc", quantity: 1, unitPriceMinor: -1000, taxPercent: 25, taxAmountMinor: -250, goodsType: "handling" }
export const RESERVED = [SCARF, TROUSERS, SHIPPING, SOCKS, DISCOUNT]

export const lineTotal = (line: OrderLine): number => line.unitPriceMinor * line.quantity + line.taxAmountMinor
export const total = (lines: readonly OrderLine[]): number => lines.reduce((sum, line) => sum + lineTotal(line), 0)

export const startInvoicePair = (sandboxOptions: Partial<SandboxOptions> = {}): Promise<SandboxPair> => startSandboxAndClient({}, { invoiceTerminal: true, ...sandboxOptions })

/** A session paid on the invoice terminal, with `lines` (default RESERVED; null: none): its ids and status. */
export async function invoicePayment(pair: SandboxPair, options: { lines?: OrderLine[] | null; amountMinor?: number } = {}) {
  const lines = options.lines === null ? undefined : (options.lines ?? RESERVED)
  const amountMinor = options.amountMinor ?? total(lines ?? [])
  const session = await pair.client.checkout.createSession({ orderId: `order-${Math.random().toString(16).slice(2)}`, amountMinor, currency: "DKK", orderLines: lines })
  const paid = await pair.sandbox.simulatePayment(session.sessionId, { paymentMethodId: INVOICE_METHOD.id, callback: false })
  return { ...paid, transactionId: paid.transactionId ?? "" }
}
