/**
 * Where AltaPay sends the customer after its payment page: the successUrl / failureUrl options with
 * their placeholders filled for one payment session.
 *
 *   {session_id}  the Medusa payment session id (AltaPay's shop_orderid)
 *   {cart_id}     the cart being paid, read through `query` (payment session -> payment collection
 *                 -> cart). The storefront's return route completes the cart with it: its own cart
 *                 cookie is SameSite=Strict, so the browser does not send it on the way back from
 *                 AltaPay's site.
 *
 * A session without a cart (a payment link for an order) gets no URL that needs {cart_id}; AltaPay
 * then shows its own result page.
 */
import type { RemoteQueryFunction } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { AltaPayOptions } from "../../lib/registrations/options"

type Query = Pick<RemoteQueryFunction, "graph">

export interface ReturnUrlsFor {
  success?: string
  failure?: string
}

export class ReturnUrls {
  private readonly needsCart: boolean

  constructor(
    private readonly options: Pick<AltaPayOptions, "successUrl" | "failureUrl">,
    private readonly query: Query | undefined
  ) {
    this.needsCart = [options.successUrl, options.failureUrl].some((url) => url?.includes("{cart_id}"))
    if (this.needsCart && !query) {
      throw new MedusaError(
        MedusaError.Types.INVALID_ARGUMENT,
        "AltaPay: successUrl/failureUrl use {cart_id}, which the provider reads through `query`. Add dependencies: [ContainerRegistrationKeys.QUERY] to the Payment module in medusa-config."
      )
    }
  }

  async for(paymentSessionId: string): Promise<ReturnUrlsFor> {
    const values: Record<string, string | undefined> = {
      session_id: paymentSessionId,
      cart_id: this.needsCart ? await this.cartIdOf(paymentSessionId) : undefined,
    }
    const fill = (template?: string): string | undefined => {
      if (!template) return undefined
      let missing = false
      const filled = template.replace(/\{(session_id|cart_id)\}/g, (_, name: string) => {
        const value = values[name]
        if (value === undefined) missing = true
        return encodeURIComponent(value ?? "")
      })
      return missing ? undefined : filled
    }
    return { success: fill(this.options.successUrl), failure: fill(this.options.failureUrl) }
  }

  private async cartIdOf(paymentSessionId: string): Promise<string | undefined> {
    const { data } = await this.query!.graph({
      entity: "payment_session",
      fields: ["id", "payment_collection.cart.id"],
      filters: { id: paymentSessionId },
    })
    return (data[0] as { payment_collection?: { cart?: { id?: string } | null } | null } | undefined)?.payment_collection?.cart?.id ?? undefined
  }
}
