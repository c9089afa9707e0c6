/**
 * Which order lines an AltaPay session gets, best first: the lines the store route built from the
 * server-side cart (context.altapay.order_lines), else the cart loaded through `query` (when the
 * store gave the Payment module that dependency), else one summary line for the amount. Lines are
 * always for exactly the amount Medusa asks: lines for another amount are not sent, and a session
 * whose amount is not its cart's total is refused (it would charge the customer something the
 * cart does not say).
 */
import type { Logger, RemoteQueryFunction } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { minorToDecimal, orderLinesTotalMinor, type OrderLine } from "../../altapay"
import { CART_FIELDS_FOR_LINES, payableCartLines, payableCartTotal, type CartForLines, type CartLineOptions } from "../../lib/medusa-mapping/cart-lines"
import { CART_FIELDS_FOR_CUSTOMER, cartCustomer } from "../../lib/medusa-mapping/customer"
import type { CheckoutCustomer } from "../../altapay/checkout-schemas"
import { orderLineSchema, type AltaPayPaymentData } from "../../lib/payment-data/data"

export type LinesSource = AltaPayPaymentData["order_lines_source"]

/** The cart as loaded here: its lines' fields and what it knows of the buyer (e-mail, addresses). */
type LoadedCart = CartForLines & Parameters<typeof cartCustomer>[0]
const LOADED_CART_FIELDS = [...new Set([...CART_FIELDS_FOR_LINES, ...CART_FIELDS_FOR_CUSTOMER])]

const contextLinesSchema = z.array(orderLineSchema).min(1)

export interface SessionLinesInput {
  context: unknown
  /** The Medusa payment session id (AltaPay's orderId). */
  paymentSessionId: string
  amountMinor: number
  currency: string
}

export class SessionLines {
  private warnedNoQuery = false

  constructor(
    private readonly query: Pick<RemoteQueryFunction, "graph"> | undefined,
    private readonly logger: Logger | undefined,
    private readonly cartOptions: CartLineOptions
  ) {}

  /**
   * The lines, and the buyer as the cart knows them when the cart was loaded here (Medusa's own store
   * route passes providers no guest: the cart's e-mail and addresses are all AltaPay can get).
   */
  async resolve(input: SessionLinesInput): Promise<{ lines: OrderLine[]; source: LinesSource; customer?: CheckoutCustomer }> {
    const fromContext = contextLines(input.context)
    if (fromContext) {
      const total = orderLinesTotalMinor(fromContext)
      if (total === input.amountMinor) return { lines: fromContext, source: "store_route" }
      this.logger?.warn(`AltaPay ${input.paymentSessionId}: the store route's lines total ${total}, not the ${input.amountMinor} asked; loading the cart instead.`)
    }
    const cart = await this.loadCart(input)
    if (cart) {
      const cartMinor = payableCartTotal(cart)
      if (cartMinor !== input.amountMinor) {
        const fmt = (minor: number) => `${minorToDecimal(minor, input.currency)} ${input.currency}`
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          `AltaPay: payment session ${input.paymentSessionId} is for ${fmt(input.amountMinor)}, but its cart ${cart.id} comes to ${fmt(cartMinor)}. Nothing was sent to AltaPay. Refresh the cart's payment collection (Medusa does when the cart changes) and create the payment session again.`
        )
      }
      return { lines: payableCartLines(cart, this.cartOptions, cartMinor), source: "query", customer: cartCustomer(cart) }
    }
    return { lines: summaryLine(input.paymentSessionId, input.amountMinor), source: "summary" }
  }

  /** The session's cart through `query`; undefined without `query`, for a session of no cart, or when it cannot be read. */
  private async loadCart(input: SessionLinesInput): Promise<LoadedCart | undefined> {
    if (!this.query) {
      if (!this.warnedNoQuery) {
        this.warnedNoQuery = true
        this.logger?.warn(
          "AltaPay: the Payment module has no `query` dependency, so sessions get one summary line instead of the cart's items. Add dependencies: [ContainerRegistrationKeys.QUERY] to the Payment module in medusa-config (see the README)."
        )
      }
      return undefined
    }
    try {
      const { data: sessions } = await this.query.graph({
        entity: "payment_session",
        fields: ["id", "payment_collection.cart.id"],
        filters: { id: input.paymentSessionId },
      })
      const cartId = (sessions[0] as { payment_collection?: { cart?: { id?: string } } } | undefined)?.payment_collection?.cart?.id
      if (!cartId) return undefined
      const { data: carts } = await this.query.graph({ entity: "cart", fields: LOADED_CART_FIELDS, filters: { id: cartId } })
      return carts[0] as LoadedCart | undefined
    } catch (error) {
      this.logger?.warn(`AltaPay ${input.paymentSessionId}: could not load the cart's lines (${error instanceof Error ? error.message : String(error)}); sending one summary line.`)
      return undefined
    }
  }
}

/** Lines from the session context, validated; they come from our store route, never the browser. */
export function contextLines(context: unknown): OrderLine[] | undefined {
  const raw = (context as { altapay?: { order_lines?: unknown } } | undefined)?.altapay?.order_lines
  if (raw === undefined) return undefined
  const parsed = contextLinesSchema.safeParse(raw)
  if (!parsed.success) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `AltaPay: context.altapay.order_lines is invalid (${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}).`
    )
  }
  return parsed.data
}

/** True when two sets of lines would look the same to AltaPay. */
export function sameLines(a: readonly OrderLine[], b: readonly OrderLine[]): boolean {
  const key = (line: OrderLine) =>
    JSON.stringify([
      line.itemId,
      line.description,
      line.quantity,
      line.unitPriceMinor,
      line.taxAmountMinor,
      line.taxPercent,
      line.goodsType,
      line.discountPercent,
      line.unitCode,
      line.imageUrl,
      line.productUrl,
    ])
  return a.length === b.length && a.every((line, i) => key(line) === key(b[i]))
}

export function summaryLine(paymentSessionId: string, amountMinor: number): OrderLine[] {
  return [
    { itemId: "order", description: `Order ${paymentSessionId}`.slice(0, 255), quantity: 1, unitPriceMinor: amountMinor, taxAmountMinor: 0, taxPercent: 0, goodsType: "item" },
  ]
}
