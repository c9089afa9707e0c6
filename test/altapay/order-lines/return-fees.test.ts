/**
 * A return fee kept on an item refund, on AltaPay's "Refund a Klarna payment" example (kept as
 * `klarnaReturnFeeRefund`): the item of 10 + 10 % tax (11.00) refunded less a 6.40 fee of 5.12 +
 * 25 % tax gives the customer 4.60.
 */
import type { OrderLine } from "../../../src/altapay"
import { ItemRefundError, keptReturnFeesMinor, orderLinesTotalMinor, withReturnFee, type ItemRefundPlan } from "../../../src/altapay/order-lines"
import { decimalToMinor } from "../../../src/altapay/money"
import { klarnaReturnFeeRefund } from "../documented-samples/samples"

const example = klarnaReturnFeeRefund.value
const minor = (text: string) => decimalToMinor(text, "DKK")
const line = (i: number, field: string) => example[`orderLines[${i}][${field}]`]
/** The example's item as our item refund plans it (its tax worked out from its percent, as AltaPay infers it). */
const ITEM: OrderLine = {
  goodsType: "physical",
  description: line(0, "description"),
  quantity: Number(line(0, "quantity")),
  taxPercent: Number(line(0, "taxPercent")),
  unitPriceMinor: minor(line(0, "unitPrice")),
  taxAmountMinor: (minor(line(0, "unitPrice")) * Number(line(0, "taxPercent"))) / 100,
  itemId: line(0, "itemId"),
}
/** The example's fee as the shop keeps it, tax included: 5.12 + 25 % = 6.40. */
const FEE_RATE = Number(line(1, "taxPercent"))
const FEE_GROSS = (minor(line(1, "unitPrice")) * (100 + FEE_RATE)) / 100
const goods: ItemRefundPlan = { amountMinor: orderLinesTotalMinor([ITEM]), lines: [ITEM], items: [{ line_item_id: "ordli_test", quantity: 1 }] }

describe("a return fee kept on an item refund", () => {
  it("refunds the example's 11.00 of goods less a 6.40 fee at 25 %: the example's 4.60 back, the fee its 5.12 + 1.28 line", () => {
    expect({ goods: goods.amountMinor, fee: FEE_GROSS }).toEqual({ goods: 1100, fee: 640 })
    const plan = withReturnFee(goods, { grossMinor: FEE_GROSS, taxPercent: FEE_RATE, currency: "DKK" })
    expect(plan).toEqual({
      amountMinor: minor(example.amount),
      goodsMinor: 1100,
      lines: [ITEM],
      items: goods.items,
      returnFee: { description: "Return fee", itemId: "return-fee", quantity: 1, unitPriceMinor: minor(line(1, "unitPrice")), taxAmountMinor: 128, taxPercent: FEE_RATE },
    })
    // What AltaPay works out: the goods lines less the fee line is the amount.
    expect(orderLinesTotalMinor(plan.lines) - orderLinesTotalMinor([plan.returnFee])).toBe(plan.amountMinor)
  })

  it("takes the refunded items' tax rate when none is given, net and tax adding up to the fee", () => {
    const plan = withReturnFee(goods, { grossMinor: FEE_GROSS, currency: "DKK" })
    // 6.40 / 1.10 = 5.818..: 5.82 net, 0.58 tax.
    expect(plan.returnFee).toMatchObject({ unitPriceMinor: 582, taxAmountMinor: 58, taxPercent: 10 })
    expect(plan.amountMinor).toBe(minor(example.amount))
  })

  it("refuses a fee that leaves the customer nothing, saying so", () => {
    expect(() => withReturnFee(goods, { grossMinor: 1100, taxPercent: 25, currency: "DKK" })).toThrow(
      new ItemRefundError([
        "The return fee of 11.00 DKK is not less than the 11.00 DKK of goods refunded, so the customer would get nothing back: lower the fee or refund more items.",
      ])
    )
    expect(() => withReturnFee(goods, { grossMinor: 0, currency: "DKK" })).toThrow(ItemRefundError)
  })

  it("asks for the fee's rate when the refunded lines have several", () => {
    const shipping: OrderLine = { goodsType: "shipment", description: "Shipping", quantity: 1, taxPercent: 25, unitPriceMinor: 400, taxAmountMinor: 100, itemId: "ship" }
    const mixed = { ...goods, amountMinor: 1600, lines: [ITEM, shipping] }
    expect(() => withReturnFee(mixed, { grossMinor: 640, currency: "DKK" })).toThrow(/tax rates 10 %, 25 %: give the return fee's tax rate/)
    expect(withReturnFee(mixed, { grossMinor: 640, taxPercent: 25, currency: "DKK" }).amountMinor).toBe(960)
  })

  it("counts the fees the shop kept on earlier refunds, not those of failed ones", () => {
    const fee = { description: "Return fee", itemId: "return-fee", quantity: 1, unitPriceMinor: 512, taxAmountMinor: 128, taxPercent: 25 }
    expect(
      keptReturnFeesMinor([{ status: "succeeded", return_fee: fee }, { status: "open", return_fee: fee }, { status: "failed", return_fee: fee }, { status: "succeeded" }])
    ).toBe(1280)
  })
})
