import type { GatewayTransaction } from "../../src/altapay"
import type { AltaPayPayment } from "../../src/api/admin/altapay/_lib/altapay-payment"
import { adminAltaPayPayment } from "../../src/api/admin/altapay/_lib/payment-view"
import { freshPaymentData } from "../../src/lib/payment-data/data"
import type { MovementPayout } from "../../src/modules/altapay-payouts/types"

const amount = (minor: number) => ({ minor, decimal: (minor / 100).toFixed(2), currency: "DKK" })

function payment(overrides: Partial<AltaPayPayment["data"]> = {}): AltaPayPayment {
  return {
    id: "pay_1",
    currency_code: "dkk",
    provider_id: "pp_altapay_altapay",
    amount_minor: 25000,
    captured_minor: 25000,
    refunded_minor: 5000,
    uncaptured_exact: "0",
    canceled_at: null,
    medusa_refunds: [{ id: "ref_1", amount_minor: 5000, note: "Broken", created_at: "2026-01-01T10:00:00.000Z", created_by: "user_1" }],
    data: {
      ...freshPaymentData({
        altapay_session_id: "sess_1",
        order_id: "payses_1",
        amount_minor: 25000,
        currency: "DKK",
        terminal: "Shop DKK",
        auto_capture: false,
        order_lines: [],
        order_lines_source: "store_route",
      }),
      transaction_id: "tx_1",
      transaction_status: "captured",
      masked_pan: "411111******1111",
      card_scheme: "Visa",
      reserved_minor: 25000,
      captured_minor: 25000,
      refunded_minor: 5000,
      refunds: [
        {
          refund_id: "ref_1",
          reconciliation_identifier: "medusa-refund-ref_1",
          amount_minor: 5000,
          status: "open",
          created_at: "2026-01-01T10:00:00.000Z",
          items: [{ line_item_id: "ordli_mug", quantity: 1 }],
          note: "Broken",
        },
      ],
      ...overrides,
    },
    order: {
      id: "order_1",
      display_id: 7,
      currency_code: "dkk",
      items: [
        { id: "ordli_mug", product_title: "Mug", variant_sku: "MUG", quantity: 2, unit_price: 40, is_tax_inclusive: true, tax_lines: [{ rate: 25 }] },
        { id: "ordli_tea", product_title: "Tea", quantity: 1, unit_price: 121, is_tax_inclusive: true, tax_lines: [{ rate: 25 }] },
      ],
      shipping_methods: [{ id: "ordsm_1", name: "Post", amount: 49, is_tax_inclusive: true, tax_lines: [{ rate: 25 }] }],
    },
  }
}

const transaction = (refundIds: string[]): GatewayTransaction => ({
  transactionId: "tx_1",
  paymentId: "p_1",
  transactionStatus: "refunded",
  terminal: "Shop DKK",
  reservedAmount: amount(25000),
  capturedAmount: amount(25000),
  refundedAmount: amount(5000 + (refundIds.includes("refund-made-in-altapay") ? 1000 : 0)),
  cardInformation: { scheme: "Visa", maskedPan: "411111******1111", expiry: { month: "12", year: "2030" }, issuingCountry: "DK" },
  fraudRiskScore: "13.37",
  fraudExplanation: "test",
  paymentInfos: [],
  reconciliationIdentifiers: [
    { id: "medusa-capture-1", type: "captured", amount: amount(25000), date: new Date("2026-01-01T09:00:00Z") },
    ...refundIds.map((id) => ({ id, type: "refunded", amount: amount(id === "refund-made-in-altapay" ? 1000 : 5000), date: new Date("2026-01-02T09:00:00Z") })),
  ],
  extra: {},
})

describe("the admin's view of an AltaPay payment", () => {
  it("marks an open refund as open until AltaPay reports it, then as refunded", () => {
    const open = adminAltaPayPayment(payment(), { transaction: transaction([]) })
    expect(open.open_refunds).toBe(1)
    expect(open.refunds[0]).toMatchObject({ open: true, status: "open", source: "medusa", items: [{ line_item_id: "ordli_mug", quantity: 1, title: "Mug" }] })

    const settled = adminAltaPayPayment(payment(), { transaction: transaction(["medusa-refund-ref_1"]) })
    expect(settled.open_refunds).toBe(0)
    expect(settled.refunds[0]).toMatchObject({ open: false, status: "succeeded" })
  })

  it("lists refunds made in AltaPay's own back office, which Medusa has no record of", () => {
    const view = adminAltaPayPayment(payment(), { transaction: transaction(["medusa-refund-ref_1", "refund-made-in-altapay"]) })
    expect(view.refunds.map((r) => [r.reconciliation_identifier, r.source])).toEqual([
      ["medusa-refund-ref_1", "medusa"],
      ["refund-made-in-altapay", "altapay"],
    ])
    expect(view.altapay.refunded).toEqual(amount(6000))
  })

  it("shows AltaPay's live amounts, card, fraud score and identifiers", () => {
    const view = adminAltaPayPayment(payment(), { transaction: transaction([]) })
    expect(view.altapay).toMatchObject({
      live: true,
      error: null,
      status: "refunded",
      reserved: amount(25000),
      captured: amount(25000),
      card: { scheme: "Visa", masked_pan: "411111******1111", expiry: "12/2030", issuing_country: "DK" },
      fraud: { score: "13.37", explanation: "test" },
    })
    expect(view.altapay.reconciliation_identifiers[0]).toEqual({ id: "medusa-capture-1", type: "captured", amount: amount(25000), date: "2026-01-01T09:00:00.000Z" })
    expect(view.medusa).toMatchObject({ amount: amount(25000), refunded: amount(5000) })
  })

  it("lists the chargebacks AltaPay notified, none when there are none", () => {
    expect(adminAltaPayPayment(payment(), { error: "x" }).chargebacks).toEqual([])
    const chargeback = {
      key: "k1",
      date: "2026-01-05T00:00:00+01:00",
      type: "Chargeback",
      reason_code: "4837",
      reason: "No Cardholder Authorization",
      amount_minor: 25000,
      currency: "DKK",
      acquirer_transaction_id: null,
      received_at: "2026-01-05T10:00:00.000Z",
    }
    const view = adminAltaPayPayment(payment({ chargebacks: [chargeback] }), { error: "x" })
    expect(view.chargebacks).toEqual([
      {
        key: "k1",
        date: "2026-01-05T00:00:00+01:00",
        type: "Chargeback",
        reason_code: "4837",
        reason: "No Cardholder Authorization",
        amount: amount(25000),
        acquirer_transaction_id: null,
        received_at: "2026-01-05T10:00:00.000Z",
      },
    ])
  })

  it("without AltaPay it shows the stored values and why", () => {
    const view = adminAltaPayPayment(payment(), { error: "AltaPay could not be reached" })
    expect(view.altapay).toMatchObject({
      live: false,
      error: "AltaPay could not be reached",
      status: "captured",
      captured: amount(25000),
      refunded: amount(5000),
      card: { masked_pan: "411111******1111", expiry: null },
    })
  })

  it("tells how many of each item and whether the shipping can still be refunded", () => {
    const view = adminAltaPayPayment(payment(), { transaction: transaction([]) })
    expect(view.refundable.amount).toEqual(amount(20000))
    expect(view.refundable.items).toEqual([
      { line_item_id: "ordli_mug", title: "Mug", sku: "MUG", quantity: 2, refunded_quantity: 1, refundable_quantity: 1 },
      { line_item_id: "ordli_tea", title: "Tea", sku: null, quantity: 1, refunded_quantity: 0, refundable_quantity: 1 },
    ])
    expect(view.refundable.shipping).toEqual([{ id: "ordsm_1", name: "Post", amount: amount(4900), refunded: false }])
  })

  it("offers each shipping method at what refunding it gives back: after its promotion, with its tax; free shipping not at all", () => {
    const base = payment()
    const shipping_methods = [
      // 49.00 without VAT, 10 % off (4.90), 25 % VAT: 55.125 -> 55.13, not the stored 49.00.
      { id: "ordsm_std", name: "Standard", amount: 49, is_tax_inclusive: false, tax_lines: [{ rate: 25 }], adjustments: [{ amount: 4.9, is_tax_inclusive: false }] },
      { id: "ordsm_free", name: "Freight", amount: 99.95, is_tax_inclusive: false, tax_lines: [{ rate: 12 }], adjustments: [{ amount: 99.95, is_tax_inclusive: false }] },
    ]
    const view = adminAltaPayPayment({ ...base, order: { ...base.order!, shipping_methods } } as AltaPayPayment, { transaction: transaction([]) })
    expect(view.refundable.shipping).toEqual([{ id: "ordsm_std", name: "Standard", amount: amount(5513), refunded: false }])
  })

  it("after Capture items of one mug, offers that mug alone for Refund items; with store credit reserved, every unit as before", () => {
    const oneMug = {
      capture_id: "c_1",
      reconciliation_identifier: "medusa-capture-c_1",
      amount_minor: 8000,
      items: [{ line_item_id: "ordli_mug", quantity: 1 }],
      created_at: "2026-01-01T09:00:00.000Z",
    }
    const partly = { ...payment({ captures: [oneMug], captured_minor: 8000, refunded_minor: 0, refunds: [] }), captured_minor: 8000, refunded_minor: 0, medusa_refunds: [] }
    const refundable = (p: AltaPayPayment) => adminAltaPayPayment(p, { transaction: undefined }).refundable.items.map((i) => [i.line_item_id, i.refundable_quantity])
    expect(refundable(partly)).toEqual([
      ["ordli_mug", 1],
      ["ordli_tea", 0],
    ])
    const credit = { itemId: "credit-1", description: "Store credit", quantity: 1, unitPrice: -1000, taxAmount: 0, taxPercent: 0, goodsType: "handling" }
    const withCredit = { ...partly, data: { ...partly.data, order_lines: [credit] } } as unknown as AltaPayPayment
    expect(refundable(withCredit)).toEqual([
      ["ordli_mug", 2],
      ["ordli_tea", 1],
    ])
  })

  it("shows the return fee a Klarna refund kept, counts its items refunded, and the fee as not refundable", () => {
    const fee = { description: "Return fee", itemId: "return-fee", quantity: 1, unitPriceMinor: 512, taxAmountMinor: 128, taxPercent: 25 }
    const klarna = payment({ payment_nature: "Invoice", refunds: [{ ...payment().data.refunds[0], status: "succeeded", amount_minor: 5000, return_fee: fee }] })
    const view = adminAltaPayPayment(klarna, { transaction: { ...transaction(["medusa-refund-ref_1"]), paymentNature: "Invoice" } })
    expect(view.refunds[0]).toMatchObject({ amount: amount(5000), return_fee: { amount: amount(640), tax_percent: 25 }, items: [{ line_item_id: "ordli_mug", quantity: 1 }] })
    expect(view.refundable).toMatchObject({ amount: amount(25000 - 5000 - 640), return_fees: true })
    expect(view.refundable.items[0]).toMatchObject({ line_item_id: "ordli_mug", refundable_quantity: 1 })

    const card = adminAltaPayPayment(payment(), { transaction: transaction([]) })
    expect(card.refunds[0].return_fee).toBeNull()
    expect(card.refundable.return_fees).toBe(false)
  })

  it("says what stays reserved after a partial capture of a canceled order, from AltaPay's amounts and reservation date", () => {
    const partly: GatewayTransaction = {
      ...transaction([]),
      transactionStatus: "captured",
      capturedAmount: amount(10000),
      refundedAmount: amount(0),
      createdDate: new Date("2026-01-01T08:00:00Z"),
    }
    expect(adminAltaPayPayment(payment(), { transaction: transaction([]) }).reservation_left).toBeNull()
    const view = adminAltaPayPayment({ ...payment(), canceled_at: null, order: { ...payment().order!, status: "canceled" } }, { transaction: partly })
    expect(view.reservation_left).toEqual({
      amount: amount(15000),
      reserved_at: "2026-01-01T08:00:00.000Z",
      kind: "card",
      lapses_about: "2026-01-08T08:00:00.000Z",
      lapses_by: "2026-01-31T08:00:00.000Z",
      abandoned: true,
    })
    // Klarna and invoice: AltaPay's PaymentNature Invoice, or a terminal the registration names an invoice terminal.
    expect(adminAltaPayPayment(payment(), { transaction: { ...partly, paymentNature: "Invoice" } }).reservation_left).toMatchObject({
      kind: "invoice",
      lapses_about: "2026-01-29T08:00:00.000Z",
    })
    expect(adminAltaPayPayment(payment(), { transaction: partly }, undefined, { invoiceTerminals: ["Shop DKK"] }).reservation_left?.kind).toBe("invoice")
  })

  it("tells which payout each capture and refund went into, and none when the store has no payouts", () => {
    expect(adminAltaPayPayment(payment(), { transaction: transaction([]) })).toMatchObject({ payouts: [], payouts_error: null })

    const funded: MovementPayout = {
      kind: "capture",
      medusaId: "capt_1",
      amountMinor: 25000,
      currency: "DKK",
      recordedAt: "2026-01-01T09:00:00.000Z",
      status: "funded",
      lines: [
        {
          lineId: "fline_1",
          fileId: "ffile_1",
          filename: "funding-2026-01-03.csv",
          fundingDate: "2026-01-03",
          lineDate: "2026-01-01",
          type: "payment",
          method: "reconciliation_identifier",
          settlementCurrency: "EUR",
          settlementAmountMinor: 3355,
          feesMinor: 114,
          netMinor: 3241,
        },
      ],
    }
    const awaiting: MovementPayout = {
      kind: "refund",
      medusaId: "ref_1",
      amountMinor: 5000,
      currency: "DKK",
      recordedAt: "2026-01-02T09:00:00.000Z",
      status: "awaiting",
      lines: [],
    }
    const view = adminAltaPayPayment(payment(), { transaction: transaction([]) }, { payouts: [funded, awaiting], error: null })
    expect(view.payouts).toEqual([funded, awaiting])

    const failed = adminAltaPayPayment(payment(), { transaction: transaction([]) }, { payouts: [], error: "The payouts could not be read: relation does not exist" })
    expect(failed).toMatchObject({ payouts: [], payouts_error: "The payouts could not be read: relation does not exist", altapay: { live: true } })
  })
})
