/** Shapes shared by the client's modules. Amounts are integer minor units unless a name says otherwise. */

export const GOODS_TYPES = ["shipment", "handling", "item", "digital", "discount", "gift_card", "physical", "sales_tax"] as const
export type GoodsType = (typeof GOODS_TYPES)[number]

/**
 * One AltaPay order line, in minor units. Converted to decimal text only on the wire
 * (`order-lines.ts`: toCheckoutOrderLines / toGatewayOrderLineFields).
 * Line total (minor) = unitPriceMinor * quantity + taxAmountMinor, reduced by `discountPercent`.
 */
export interface OrderLine {
  /** Max 255 characters. */
  description: string
  /** Max 100 characters, unique within the order. */
  itemId: string
  /** Greater than zero. */
  quantity: number
  /** Unit price excluding tax. Greater than zero unless goodsType is `handling`. */
  unitPriceMinor: number
  /** Total tax on the line before discounts (always sent, with taxPercent). */
  taxAmountMinor: number
  /** Tax percentage, e.g. 25 or 12.5. */
  taxPercent: number
  goodsType?: GoodsType
  /** Line discount in percent (AltaPay's `discount`); our builder never sets it. */
  discountPercent?: number
  /** Max 50 characters. */
  unitCode?: string
  /** Max 255 characters, a full URL. */
  imageUrl?: string
  /** Max 255 characters, a full URL. */
  productUrl?: string
}
