/**
 * Seeding and shopping helpers for whole-app specs on the AltaPay test store
 * (tools/test-store/store-app, README there: specs with the same options share one app). The
 * runner restores the database before every test to what the suite's beforeAll left, so seed in
 * `beforeAll` (or `beforeEach`, or at the start of each test):
 *
 *   const store = useAltaPayStore()                          // top level of the spec
 *   storeTestRunner({ cwd: STORE_APP_DIR, testSuite: ({ api, getContainer }) => {
 *     let seed: SeededStore
 *     beforeAll(async () => { seed = await seedStore(getContainer()) })
 *     it("...", async () => {
 *       const { orderId, paymentId } = await createAltaPayOrder(api, seed, getContainer(), store.sandbox())
 *     })
 *   }})
 *
 * The seed itself (seedStore) is tools/store/seed.ts, shared with the demo and re-exported here.
 * Everything is created with Medusa's own core-flows workflows, as Medusa's seed script does.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createProductsWorkflow, createUserAccountWorkflow } from "@medusajs/medusa/core-flows"
import type { Sandbox } from "../../src/sandbox"
import { createPayment, listPaymentMethods, startAltaPayCheckout, type AltaPaySession } from "../../src/storefront"
import type { SeededStore } from "../../tools/store/seed"

/** The runner's axios instance (`api`), typed as far as these helpers use it. */
export interface Api {
  get(url: string, config?: RequestConfig): Promise<ApiResponse>
  post(url: string, data?: unknown, config?: RequestConfig): Promise<ApiResponse>
  delete(url: string, config?: RequestConfig): Promise<ApiResponse>
  defaults: { baseURL?: string }
}
export interface RequestConfig {
  headers?: Record<string, string>
  validateStatus?: (status: number) => boolean
}
export interface ApiResponse<T = any> {
  status: number
  data: T
  headers: Record<string, unknown>
}

export { seedStore, type SeedStoreOptions, type SeededProduct, type SeededStore, type StoreCurrency } from "../../tools/store/seed"
import { seedStore, type SeedStoreOptions } from "../../tools/store/seed"

/** A route's answer that must be a 200: its data; otherwise a failure naming the step, the status and the route's message. */
export function expectOk(step: string, r: ApiResponse): any {
  expect({ step, status: r.status, message: r.data?.message }).toEqual({ step, status: 200, message: undefined })
  return r.data
}

/** Headers for /store calls: the publishable key, plus a customer's bearer token when given. */
export function storeHeaders(seed: Pick<SeededStore, "publishableKey">, customerToken?: string): Record<string, string> {
  return { "x-publishable-api-key": seed.publishableKey, ...(customerToken ? { authorization: `Bearer ${customerToken}` } : {}) }
}

export interface CreateCartOptions {
  /** Items by product key (default: 2 coffee + 1 tea). */
  items?: Array<{ product: "coffee" | "tea"; quantity: number }>
  /** Add the seeded shipping option (default true). */
  shipping?: boolean
  /** Apply the seeded promotion code (default: when the seed has one). */
  promotion?: boolean
  email?: string
  /** A signed-in customer's token: the cart becomes theirs. */
  customerToken?: string
}

const ADDRESS = { first_name: "Karen", last_name: "Blixen", address_1: "Strandvejen 111", city: "Rungsted", postal_code: "2960", phone: "+4512345678" }

/**
 * A cart built through the store API as a storefront would: items, addresses and promotion code
 * in the create call, then the shipping method. Returns the cart as GET /store/carts/:id does.
 */
export async function createCart(api: Api, seed: SeededStore, options: CreateCartOptions = {}): Promise<any> {
  const opts = { headers: storeHeaders(seed, options.customerToken) }
  const address = { ...ADDRESS, country_code: seed.countryCode }
  const items = options.items ?? [
    { product: "coffee" as const, quantity: 2 },
    { product: "tea" as const, quantity: 1 },
  ]
  const usePromotion = (options.promotion ?? !!seed.promotionCode) && !!seed.promotionCode
  const { data } = await api.post(
    "/store/carts",
    {
      region_id: seed.region.id,
      sales_channel_id: seed.salesChannel.id,
      email: options.email ?? "karen@example.com",
      items: items.map((i) => ({ variant_id: seed.products[i.product].variantId, quantity: i.quantity })),
      shipping_address: address,
      billing_address: address,
      ...(usePromotion ? { promo_codes: [seed.promotionCode] } : {}),
    },
    opts
  )
  if (!(options.shipping ?? true)) return data.cart
  const { data: shipped } = await api.post(`/store/carts/${data.cart.id}/shipping-methods`, { option_id: seed.shippingOption.id }, opts)
  return shipped.cart
}

/**
 * A cart of one new product at `unitPrice` (the store's currency, DKK) with the seeded shipping,
 * for AltaPay's test amounts (e.g. the fraud service's 102.00 Challenge and 110.00 Deny): the
 * caller prices it for the store's taxes and checks the total.
 */
export async function cartWithNewProduct(api: Api, container: MedusaContainer, seed: SeededStore, unitPrice: number): Promise<{ id: string; total: number }> {
  const stamp = `${unitPrice}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`
  const { result } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: `Test amount ${unitPrice}`,
          handle: `test-amount-${stamp}`,
          status: "published",
          shipping_profile_id: seed.shippingProfile.id,
          options: [{ title: "Size", values: ["One"] }],
          variants: [{ title: "One", sku: `AMOUNT-${stamp}`, options: { Size: "One" }, manage_inventory: false, prices: [{ currency_code: "dkk", amount: unitPrice }] }],
          sales_channels: [{ id: seed.salesChannel.id }],
        },
      ],
    },
  })
  const headers = { headers: storeHeaders(seed) }
  const address = { ...ADDRESS, country_code: seed.countryCode }
  const { data } = await api.post(
    "/store/carts",
    {
      region_id: seed.region.id,
      sales_channel_id: seed.salesChannel.id,
      email: "karen@example.com",
      items: [{ variant_id: result[0].variants[0].id, quantity: 1 }],
      shipping_address: address,
      billing_address: address,
    },
    headers
  )
  const { data: shipped } = await api.post(`/store/carts/${data.cart.id}/shipping-methods`, { option_id: seed.shippingOption.id }, headers)
  return { id: shipped.cart.id, total: shipped.cart.total }
}

/** POST /store/carts/:id/altapay-session through the storefront helper, as a browser would (`providerId`: the registration). */
export function startSession(api: Api, seed: SeededStore, cartId: string, customerToken?: string, providerId?: string): Promise<AltaPaySession> {
  return startAltaPayCheckout({
    medusaUrl: api.defaults.baseURL!,
    publishableKey: seed.publishableKey,
    cartId,
    ...(providerId ? { providerId } : {}),
    ...(customerToken ? { headers: { authorization: `Bearer ${customerToken}` } } : {}),
  })
}

export interface PaidSession {
  session: AltaPaySession
  paymentId: string
  /** Status of the hosted page's answer (303 to the success URL when it has one); undefined without the page. */
  pageStatus?: number
  /** Where the payment page sent the customer back to. */
  returnUrl?: string | null
}

export interface PayOptions {
  outcome?: "authorize" | "decline"
  /**
   * Without a sandbox: submit AltaPay's hosted page, which also sends the notification callback
   * to Medusa (processed about 5 s later: wait for it in the same test, or it lands in the next
   * test's restored database and only logs "PaymentSession ... was not found").
   * With `{ sandbox, callback: false }`: the same payment completed in the sandbox without a callback.
   */
  sandbox?: Sandbox
  callback?: boolean
  /** Pay with this method, whatever its terminal (the helper's `allTerminals`): a payment outside the registration. */
  methodId?: string
}

/**
 * Pays an AltaPay session the way a customer does: lists the methods with the CUSTOMER token,
 * creates the payment, and submits the hosted payment page (the sandbox then sends its
 * notification callback to the session's notification URL before redirecting the customer).
 */
export async function payWithAltaPay(session: AltaPaySession, outcomeOrOptions: "authorize" | "decline" | PayOptions = "authorize"): Promise<PaidSession> {
  const options: PayOptions = typeof outcomeOrOptions === "string" ? { outcome: outcomeOrOptions } : outcomeOrOptions
  const outcome = options.outcome ?? "authorize"
  const methods = options.methodId ? [] : await listPaymentMethods(session)
  // The registration's own terminal, as a storefront offering it would choose; else a card.
  const method = methods.find((m) => !!session.terminal && m.metadata?.terminalName === session.terminal) ?? methods.find((m) => m.type === "CARD") ?? methods[0]
  const methodId = options.methodId ?? method?.id
  if (!methodId) throw new Error("AltaPay offered no payment method")
  const payment = await createPayment(session, methodId, { allTerminals: !!options.methodId })
  if (options.sandbox && options.callback === false) {
    await options.sandbox.simulatePayment(session.sessionId, { outcome, callback: false })
    return { session, paymentId: payment.paymentId }
  }
  const page = await submitPaymentPage(payment.redirectUrl, outcome)
  if (page.status >= 400) throw new Error(`The AltaPay payment page answered ${page.status}`)
  return { session, paymentId: payment.paymentId, pageStatus: page.status, returnUrl: page.headers.get("location") }
}

/**
 * The customer submits AltaPay's (the sandbox's) payment page with `outcome`, as its form posts it:
 * the answer, its body read (a 303 on to the return, or 410 for a page that was retired).
 */
export async function submitPaymentPage(redirectUrl: string, outcome: "authorize" | "decline" = "authorize"): Promise<Response> {
  const page = await fetch(redirectUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: "manual",
  })
  await page.text()
  return page
}

/** An admin route's answer as a test compares it: its status, and its message when it has one. */
export const answered = (r: ApiResponse): { status: number; message?: string } => ({ status: r.status, ...(r.data?.message ? { message: String(r.data.message) } : {}) })

/** What each of several requests answered (answered), by a name the test gives it ("capture", "cancel 2"). */
export type Answers = Record<string, { status: number; message?: string }>

/** A payment link as the plugin's admin route (POST /admin/altapay/payment-links) answers it. */
export interface PaymentLink {
  status: number
  message?: string
  payment_session_id: string
  altapay_session_id: string
  payment_link: { url: string }
  amount: { minor: number }
}

/** Sends a payment link for an order's amount due, as an admin (`config`: the admin's headers). */
export async function sendPaymentLink(api: Api, orderId: string, config: RequestConfig): Promise<PaymentLink> {
  const { status, data } = await api.post("/admin/altapay/payment-links", { order_id: orderId }, config)
  return { status, ...data }
}

/** The order created from a cart (by the customer completing it, or by the callback), if any. */
export async function orderForCart(container: MedusaContainer, cartId: string): Promise<{ id: string } | undefined> {
  const [orderId] = await orderIdsOfCart(container, cartId)
  return orderId ? { id: orderId } : undefined
}

/** Every order linked to a cart (order_cart rows): one, unless a cart was made into two orders. */
export async function orderIdsOfCart(container: MedusaContainer, cartId: string): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  return (data as Array<{ order_id?: string }>).flatMap((row) => (row.order_id ? [row.order_id] : []))
}

/**
 * Polls until the cart's order exists with its payment (the callback path completes it about
 * webhook_delay later). Medusa links the order before it authorizes the payment, in separate
 * steps, so an order alone is not yet a completed cart.
 */
export async function waitForOrder(container: MedusaContainer, cartId: string, timeoutMs = 15_000): Promise<{ id: string }> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const order = await orderForCart(container, cartId)
    if (order && (await orderPayments(container, order.id)).length > 0) return order
    if (Date.now() > deadline) throw new Error(`No paid order for cart ${cartId} after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/**
 * "AltaPay's callback first": the sandbox holds every customer return (its post to the plugin's
 * return endpoint) until the notification callback has made the cart's order. Returns the undo.
 */
export function returnsAfterCallback(sandbox: Sandbox, container: MedusaContainer, cartId: string, timeoutMs = 20_000): () => void {
  sandbox.holdReturns(async () => {
    await waitForOrder(container, cartId, timeoutMs)
  })
  return () => sandbox.holdReturns(undefined)
}

/** The order's payments (Medusa), with their AltaPay data. */
export async function orderPayments(
  container: MedusaContainer,
  orderId: string
): Promise<Array<{ id: string; amount: unknown; captured_at?: unknown; canceled_at?: unknown; payment_session_id: string; data: Record<string, any> }>> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "payment_collections.id", "payment_collections.payments.*"],
    filters: { id: orderId },
  })
  const order = data[0] as { payment_collections?: Array<{ payments?: any[] }> } | undefined
  return (order?.payment_collections ?? []).flatMap((c) => c.payments ?? [])
}

export interface AltaPayOrder {
  cart: any
  session: AltaPaySession
  orderId: string
  paymentId: string
}

/**
 * The whole storefront path: cart -> our route -> pay on AltaPay -> the customer completes the
 * cart. Returns the Medusa order and payment ids (the payment is authorized; capture it from the
 * admin). No callback is sent unless `callback: true` (then wait ~5 s before the test ends).
 */
export async function createAltaPayOrder(
  api: Api,
  seed: SeededStore,
  container: MedusaContainer,
  sandbox: Sandbox,
  options: CreateCartOptions & { callback?: boolean; providerId?: string } = {}
): Promise<AltaPayOrder> {
  const cart = await createCart(api, seed, options)
  const session = await startSession(api, seed, cart.id, options.customerToken, options.providerId)
  await payWithAltaPay(session, options.callback ? {} : { sandbox, callback: false })
  const { data } = await api.post(`/store/carts/${cart.id}/complete`, {}, { headers: storeHeaders(seed, options.customerToken) })
  if (data.type !== "order") throw new Error(`Cart ${cart.id} did not complete: ${JSON.stringify(data.error ?? data)}`)
  const [payment] = await orderPayments(container, data.order.id)
  return { cart, session, orderId: data.order.id, paymentId: payment.id }
}

/** An order of the seeded store's coffee and tea, with what the admin suites act on. */
export interface CoffeeTeaOrder extends AltaPayOrder {
  transactionId: string
  /** The order's coffee and tea line item ids. */
  coffee: string
  tea: string
}

/** createAltaPayOrder (by default 2 coffee + 1 tea + shipping), with the AltaPay transaction and the item ids. */
export async function createCoffeeTeaOrder(
  api: Api,
  seed: SeededStore,
  container: MedusaContainer,
  sandbox: Sandbox,
  options: Parameters<typeof createAltaPayOrder>[4] = {}
): Promise<CoffeeTeaOrder> {
  const order = await createAltaPayOrder(api, seed, container, sandbox, options)
  const { data } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order", fields: ["items.id", "items.variant_sku", "payment_collections.payments.id", "payment_collections.payments.data"], filters: { id: order.orderId } })
  const row = data[0] as { items: Array<{ id: string; variant_sku: string }>; payment_collections: Array<{ payments: Array<{ id: string; data: { transaction_id?: string } }> }> }
  const payment = row.payment_collections.flatMap((c) => c.payments).find((p) => p.id === order.paymentId)
  const itemId = (sku: string) => row.items.find((i) => i.variant_sku === sku)?.id ?? ""
  return { ...order, transactionId: payment?.data.transaction_id ?? "", coffee: itemId(seed.products.coffee.sku), tea: itemId(seed.products.tea.sku) }
}

// --- customers and admins -------------------------------------------------------------------

/** Registers a customer through the store API and returns a signed-in bearer token. */
export async function createCustomer(
  api: Api,
  seed: SeededStore,
  email = `customer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`,
  password = "secret-password-123"
): Promise<{ id: string; email: string; token: string }> {
  const { data: registration } = await api.post("/auth/customer/emailpass/register", { email, password })
  const { data } = await api.post("/store/customers", { email, first_name: "Karen", last_name: "Blixen" }, { headers: storeHeaders(seed, registration.token) })
  const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
  return { id: data.customer.id, email, token: login.token }
}

/**
 * An admin user and headers for /admin calls: registered through the auth API, made a user with
 * Medusa's createUserAccountWorkflow (what accepting an invite does), then signed in.
 */
export async function createAdminUser(
  api: Api,
  container: MedusaContainer,
  email = "admin@shop.example",
  password = "admin-password-123"
): Promise<{ id: string; token: string; headers: Record<string, string> }> {
  const { data: registration } = await api.post("/auth/user/emailpass/register", { email, password })
  const authIdentityId = jwtClaims(registration.token).auth_identity_id as string
  const { result: user } = await createUserAccountWorkflow(container).run({ input: { authIdentityId, userData: { email, first_name: "Shop", last_name: "Admin" } } })
  const { data: login } = await api.post("/auth/user/emailpass", { email, password })
  return { id: user.id, token: login.token, headers: { authorization: `Bearer ${login.token}` } }
}

function jwtClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>
}

/** Reads until `done` says so or `timeoutMs` has passed; the last value either way (the test asserts on it). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

/** Coffee with managed inventory: `stocked` at the seed's warehouse. */
export async function stockCoffee(container: MedusaContainer, seed: SeededStore, stocked: number) {
  const inventory = container.resolve(Modules.INVENTORY)
  const [item] = await inventory.createInventoryItems([{ sku: `COFFEE-STOCK-${Date.now()}` }])
  await inventory.createInventoryLevels([{ inventory_item_id: item.id, location_id: seed.stockLocation.id, stocked_quantity: stocked }])
  await container
    .resolve(ContainerRegistrationKeys.LINK)
    .create({ [Modules.PRODUCT]: { variant_id: seed.products.coffee.variantId }, [Modules.INVENTORY]: { inventory_item_id: item.id } })
  await container.resolve(Modules.PRODUCT).updateProductVariants(seed.products.coffee.variantId, { manage_inventory: true })
  return (quantity: number) => inventory.updateInventoryLevels([{ inventory_item_id: item.id, location_id: seed.stockLocation.id, stocked_quantity: quantity }])
}

/**
 * What an admin suite starts from, made before its tests: an admin user signed in and the store
 * seeded (`seedOptions`). `as()`: request options as that admin, answered whatever the status (the
 * test reads it).
 */
export function adminOfSeededStore(api: Api, getContainer: () => MedusaContainer, seedOptions?: SeedStoreOptions) {
  let user: Awaited<ReturnType<typeof createAdminUser>> | undefined
  let seeded: SeededStore | undefined
  beforeAll(async () => {
    user = await createAdminUser(api, getContainer())
    seeded = await seedStore(getContainer(), seedOptions)
  })
  const made = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("adminOfSeededStore: read before the suite's beforeAll ran")
    return value
  }
  return {
    as: () => ({ headers: made(user).headers, validateStatus: () => true }),
    get user() {
      return made(user)
    },
    get seed() {
      return made(seeded)
    },
  }
}

/**
 * A return of `quantity` of one order item through Medusa's admin return routes: created at the
 * seed's stock location, requested, received and confirmed, each step answering 200. Its id.
 */
export async function receivedReturn(api: Api, shop: ReturnType<typeof adminOfSeededStore>, orderId: string, itemId: string, quantity = 1): Promise<string> {
  const { as } = shop
  const items = [{ id: itemId, quantity }]
  const returnId = expectOk("return", await api.post("/admin/returns", { order_id: orderId, location_id: shop.seed.stockLocation.id }, as())).return.id as string
  expectOk("request items", await api.post(`/admin/returns/${returnId}/request-items`, { items }, as()))
  expectOk("request return", await api.post(`/admin/returns/${returnId}/request`, {}, as()))
  expectOk("receive", await api.post(`/admin/returns/${returnId}/receive`, {}, as()))
  expectOk("receive items", await api.post(`/admin/returns/${returnId}/receive-items`, { items }, as()))
  expectOk("confirm receive", await api.post(`/admin/returns/${returnId}/receive/confirm`, {}, as()))
  return returnId
}
