/** The provider options a test uses against its own sandbox (which speaks http only). */
import type { Sandbox } from "../../src/sandbox"
import { sessionIdFromOrderId } from "../../src/lib/medusa-mapping/shop-order-id"

export function sandboxProviderOptions(sandbox: Sandbox, credentials: { username: string; password: string }, extra: Record<string, unknown> = {}): never {
  return {
    checkoutUrl: sandbox.checkoutUrl,
    gatewayUrl: sandbox.gatewayUrl,
    ...credentials,
    backendUrl: "http://127.0.0.1:9",
    flow: "storefront",
    allowInsecureUrls: true,
    ...extra,
  } as never
}

/**
 * The Payment module's `query` for a store that has every payment session it is asked about (an
 * unpaid cart session) except `gone`: what the provider reads before it lets Medusa act on a callback.
 */
export function medusaWithSessions(gone: string[] = []): { query: { graph: (q: { entity: string; filters: { id?: string } }) => Promise<{ data: unknown[] }> } } {
  return {
    query: {
      graph: async ({ entity, filters }) =>
        entity === "payment_session" && filters.id && !gone.includes(filters.id)
          ? { data: [{ id: filters.id, status: "pending", payment: null, payment_collection: { id: "paycol_test", cart: { id: "cart_test" } } }] }
          : { data: [] },
    },
  }
}

/** The Medusa payment session a session's data belongs to (its order_id is AltaPay's shop_orderid, `payses-...`). */
export const sessionIdOf = (data: { order_id: string }): string => sessionIdFromOrderId(data.order_id)
