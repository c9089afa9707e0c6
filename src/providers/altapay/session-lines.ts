/**
 * Which order lines a new AltaPay session gets, best first: the lines the store route built from
 * the server-side cart (context.altapay.order_lines), else the cart loaded through `query` (when
 * the store gave the Payment module that dependency), else one summary line for the amount.
 */
import type { Logger, RemoteQueryFunction } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { orderLinesTotalMinor, withCompensationLine, type OrderLine } from "../../altapay"
import { CART_FIELDS_FOR_LINES, cartOrderLines, type CartForLines, type CartLineOptions } from "../../lib/cart-lines"
import { orderLineSchema, type AltaPayPaymentData } from "../../lib/payment-data"

export type LinesSource = AltaPayPaymentData["order_lines_source"]

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

  async resolve(input: SessionLinesInput): Promise<{ lines: OrderLine[]; source: LinesSource }> {
    const fromContext = contextLines(input.context)
    if (fromContext) {
      const total = orderLinesTotalMinor(fromContext)
      // Lines built for the cart total: a rounding-sized difference is absorbed, anything else is stale.
      if (Math.abs(total - input.amountMinor) <= fromContext.length) {
        return { lines: withCompensationLine(fromContext, input.amountMinor, input.currency), source: "store_route" }
      }
      this.logger?.warn(`AltaPay ${input.paymentSessionId}: the store route's lines total ${total}, not ${input.amountMinor}; loading the cart instead.`)
    }
    const fromCart = await this.fromCart(input)
    if (fromCart) return { lines: fromCart, source: "query" }
    return { lines: summaryLine(input.paymentSessionId, input.amountMinor), source: "summary" }
  }

  private async fromCart(input: SessionLinesInput): Promise<OrderLine[] | undefined> {
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
      const { data: carts } = await this.query.graph({ entity: "cart", fields: CART_FIELDS_FOR_LINES, filters: { id: cartId } })
      const cart = carts[0] as CartForLines | undefined
      return cart ? cartOrderLines(cart, this.cartOptions, input.amountMinor) : undefined
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

export function summaryLine(paymentSessionId: string, amountMinor: number): OrderLine[] {
  return [{ itemId: "order", description: `Order ${paymentSessionId}`.slice(0, 255), quantity: 1, unitPriceMinor: amountMinor, taxAmountMinor: 0, taxPercent: 0, goodsType: "item" }]
}
