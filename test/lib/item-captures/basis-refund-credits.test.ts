import { AltaPayValidationError, isCreditLine } from "../../../src/altapay"
import { itemCaptureBasis, pairedReservationBasis } from "../../../src/lib/item-captures/basis"
import { cartLineField, cartOrderLines, type CartForLines } from "../../../src/lib/medusa-mapping/cart-lines"
import type { AltaPayPaymentData } from "../../../src/lib/payment-data/data"

/** 2 coffee (89.95) + 1 tea (45.50), 10 % off each, 25 % VAT, shipping 49.00: 314.83 DKK; less the credits. */
type Credit = { id: string; amount: number; reference?: string; metadata?: Record<string, unknown> }

function medusaCart(prefix: "ca" | "ord", credits: Credit[]): CartForLines {
  const creditTotal = credits.reduce((s, c) => s + c.amount, 0)
  return {
    id: `${prefix}_1`,
    currency_code: "dkk",
    total: 314.83 - creditTotal,
    items: [
      { id: `${prefix}li_coffee`, title: "Coffee", variant_sku: "COFFEE", quantity: 2, unit_price: 89.95, tax_lines: [{ rate: 25 }], adjustments: [{ amount: 17.99 }] },
      { id: `${prefix}li_tea`, title: "Tea", variant_sku: "TEA", quantity: 1, unit_price: 45.5, tax_lines: [{ rate: 25 }], adjustments: [{ amount: 4.55 }] },
    ],
    shipping_methods: [{ id: `${prefix}sm_post`, name: "Post", amount: 49, tax_lines: [{ rate: 25 }] }],
    credit_lines: credits.map((c) => ({ id: c.id, amount: c.amount, reference: c.reference ?? null, metadata: c.metadata ?? null })),
  }
}

/** A payment of `cart` as the plugin stores it, nothing captured yet. */
function paymentOf(cart: CartForLines): AltaPayPaymentData {
  const lines = cartOrderLines(cart)
  return { order_lines: lines, amount_minor: Math.round(Number(cart.total) * 100), order_lines_source: "store_route", captures: [] } as unknown as AltaPayPaymentData
}

const STORE_CREDIT = { id: "cacl_store", amount: 50, reference: "store-credit" }
/** As Medusa's refundPaymentWorkflow books a refund of an order not paid in full: an order change adds it. */
const REFUND_CREDIT: Credit = { id: "ordcl_refund", amount: 10, reference: "payment_collection", metadata: { created_in_version: 2 } }

describe("the item-capture basis leaves out credit lines Medusa booked for refunds", () => {
  it("a store-credit order with Medusa's refund credit line of 10.00: the reservation still maps, with the store credit's line only", () => {
    const data = paymentOf(medusaCart("ca", [STORE_CREDIT]))
    expect(data.amount_minor).toBe(26483)
    const order = medusaCart("ord", [{ ...STORE_CREDIT, id: "ordcl_store" }, REFUND_CREDIT])
    const basis = itemCaptureBasis(order, data)
    expect(basis.ok).toBe(true)
    if (!basis.ok) return
    expect(basis.map.credits).toEqual(data.order_lines.filter(isCreditLine))
    expect(basis.map.entries.map((e) => e.id).sort()).toEqual(["ordli_coffee", "ordli_tea", "ordsm_post"])
  })

  it("an order paid without credit, with a refund credit line (a refund reason's label as its reference): it maps, with no credit", () => {
    const data = paymentOf(medusaCart("ca", []))
    const order = medusaCart("ord", [{ ...REFUND_CREDIT, reference: "Damaged goods" }])
    const basis = itemCaptureBasis(order, data)
    expect(basis.ok && basis.map.credits).toEqual([])
  })

  it("the paired basis (after an order edit) leaves the refund credit out too", () => {
    const data = paymentOf(medusaCart("ca", [STORE_CREDIT]))
    const order = medusaCart("ord", [{ ...STORE_CREDIT, id: "ordcl_store" }, REFUND_CREDIT])
    const paired = pairedReservationBasis(order, data)
    expect(paired.ok && { credits: paired.map.credits, unpaired: paired.map.unpaired }).toEqual({ credits: data.order_lines.filter(isCreditLine), unpaired: [] })
  })

  it("a credit the order was placed with that AltaPay did not reserve (added to the cart after the session) still does not map", () => {
    const data = paymentOf(medusaCart("ca", []))
    const order = medusaCart("ord", [{ ...STORE_CREDIT, id: "ordcl_store" }])
    expect(itemCaptureBasis(order, data)).toEqual({ ok: false, reason: expect.stringMatching(/no longer match/) })
  })

  it("a refund credit of the store credit's label and amount takes no reserved line from the store credit: the refund is left out", () => {
    const data = paymentOf(medusaCart("ca", [STORE_CREDIT]))
    const order = medusaCart("ord", [
      { ...REFUND_CREDIT, amount: 50, reference: "store-credit" },
      { ...STORE_CREDIT, id: "ordcl_store" },
    ])
    const basis = itemCaptureBasis(order, data)
    expect(basis.ok && basis.map.credits).toEqual(data.order_lines.filter(isCreditLine))
  })

  it("an order whose items changed still does not map", () => {
    const data = paymentOf(medusaCart("ca", []))
    const order = medusaCart("ord", [])
    order.items![0] = { ...order.items![0]!, quantity: 1 }
    order.total = 314.83 - 101.19375
    expect(itemCaptureBasis(order, data)).toEqual({ ok: false, reason: expect.stringMatching(/no longer match/) })
  })
})

describe("cartLineField: the cart's field behind a line-builder problem", () => {
  it("a negative credit line is refused, named as the cart's credit line", () => {
    const cart = medusaCart("ca", [{ id: "cacl_charge", amount: -10 }])
    let caught: unknown
    try {
      cartOrderLines(cart)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(AltaPayValidationError)
    const fields = (caught as AltaPayValidationError).issues.map((i) => cartLineField(cart, i.field))
    expect(fields).toEqual(["credit_lines[cacl_charge].amount"])
  })

  it("maps items, shipping, tax lines and adjustments by id, and leaves other fields as they are", () => {
    const cart = medusaCart("ca", [])
    const tea = cartLineField(cart, "items.0.taxRates.0.rate")
    expect(["items[cali_coffee].tax_lines[0].rate", "items[cali_tea].tax_lines[0].rate"]).toContain(tea)
    expect(cartLineField(cart, "items.1.unitPriceMinor")).toMatch(/^items\[cali_(coffee|tea)\]\.unit_price$/)
    expect(cartLineField(cart, "items.1.adjustments.0.amountMinor")).toMatch(/^items\[cali_(coffee|tea)\]\.adjustments\[0\]\.amount$/)
    expect(cartLineField(cart, "shipping.0.amountMinor")).toBe("shipping_methods[casm_post].amount")
    expect(cartLineField(cart, "totalMinor")).toBe("totalMinor")
  })
})
