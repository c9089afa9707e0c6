/**
 * Loads a cart server-side and decides what the AltaPay session for it must look like: the order
 * lines (built from the cart, never from the browser), the payment collection to use, and an
 * existing AltaPay session that already matches and can be reused. Read-only: nothing to undo.
 */
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { currencyInfo, orderLinesTotalMinor, type OrderLine } from "../../altapay"
import { altapayOptionsFromConfig } from "../../lib/registrations/from-config"
import { toMinorUnits } from "../../lib/medusa-mapping/amounts"
import { cartLanguageHintsOf, paymentPageLanguage } from "../../lib/medusa-mapping/language"
import { provenSessionData } from "../../lib/payment-data/data"
import { serverKeys, type ServerKeys } from "../../lib/registrations/server-keys"
import type { CheckoutCustomer } from "../../altapay/checkout-schemas"
import { CART_FIELDS_FOR_LINES, payableCartLines, payableCartTotal, type CartForLines } from "../../lib/medusa-mapping/cart-lines"
import { CART_FIELDS_FOR_CUSTOMER, cartCustomer } from "../../lib/medusa-mapping/customer"

export interface LoadAltaPayCartInput {
  cart_id: string
  /** The authenticated customer making the request (req.auth_context.actor_id), if any. */
  customer_id?: string
  provider_id: string
  product_url_template?: string
  /** Currencies the store can take with AltaPay; undefined: any ISO 4217 currency. */
  supported_currencies?: string[]
}

export interface LoadedAltaPayCart {
  cart_id: string
  currency_code: string
  total_minor: number
  order_lines: OrderLine[]
  /** Name, e-mail and addresses for AltaPay (guests included: Medusa passes providers no guest). */
  customer: CheckoutCustomer
  /** Undefined: the cart has none yet. */
  payment_collection_id?: string
  /** The collection's amount is not the cart total (Medusa refreshes it before a new session). */
  payment_collection_stale: boolean
  /** An AltaPay session of this collection for exactly this amount and these lines. */
  reusable_session?: { payment_session_id: string; altapay_session_id: string }
}

export const ALTAPAY_CART_FIELDS = [
  ...new Set([
    ...CART_FIELDS_FOR_LINES,
    "completed_at",
    "region_id",
    ...CART_FIELDS_FOR_CUSTOMER,
    "customer.id",
    "customer.has_account",
    "payment_collection.id",
    "payment_collection.amount",
    "payment_collection.currency_code",
    "payment_collection.payment_sessions.id",
    "payment_collection.payment_sessions.provider_id",
    "payment_collection.payment_sessions.status",
    "payment_collection.payment_sessions.amount",
    "payment_collection.payment_sessions.currency_code",
    "payment_collection.payment_sessions.data",
  ]),
]

type Amount = CartForLines["total"]

type CartBuyer = Parameters<typeof cartCustomer>[0]

interface LoadedCart extends CartForLines, CartBuyer {
  completed_at?: string | Date | null
  customer_id?: string | null
  customer?: { id: string; has_account?: boolean | null } | null
  payment_collection?: {
    id: string
    amount?: Amount
    currency_code?: string | null
    payment_sessions?: Array<{
      id: string
      provider_id: string
      status: string
      amount?: Amount
      currency_code?: string | null
      data?: Record<string, unknown> | null
    } | null> | null
  } | null
}

/** Statuses of a session that may still be paid: never replace those blindly. */
const REUSABLE_STATUSES = new Set(["pending", "requires_more"])

export const loadAltaPayCartStepId = "load-altapay-cart"

export const loadAltaPayCartStep = createStep(loadAltaPayCartStepId, async (input: LoadAltaPayCartInput, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "cart", fields: ALTAPAY_CART_FIELDS, filters: { id: input.cart_id } })
  const cart = data[0] as LoadedCart | undefined
  if (!cart) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart ${input.cart_id} was not found.`)
  assertCustomerMayPay(cart, input.customer_id)
  if (cart.completed_at) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Cart ${cart.id} is already completed: it has an order and needs no new payment.`)
  }
  assertNotPaid(cart)
  const currency = cart.currency_code.toUpperCase()
  assertCurrencySupported(currency, input.supported_currencies)
  if (!(cart.items ?? []).some(Boolean)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Cart ${cart.id} is empty: add line items before starting the AltaPay payment.`)
  }
  const totalMinor = payableCartTotal(cart)
  if (totalMinor <= 0) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Cart ${cart.id} has nothing to pay (total ${String(cart.total)} ${currency}): complete it without AltaPay.`)
  }
  const orderLines = payableCartLines(cart, { productUrlTemplate: input.product_url_template }, totalMinor)
  if (orderLinesTotalMinor(orderLines) !== totalMinor) {
    // cartOrderLines builds lines for exactly this total (or throws), so this only guards against a regression.
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `The AltaPay order lines of cart ${cart.id} do not add up to its total.`)
  }

  const collection = cart.payment_collection ?? undefined
  const stale =
    !!collection && (collection.amount == null || toMinorUnits(collection.amount, currency) !== totalMinor || (collection.currency_code ?? "").toUpperCase() !== currency)
  const result: LoadedAltaPayCart = {
    cart_id: cart.id,
    currency_code: currency,
    total_minor: totalMinor,
    order_lines: orderLines,
    customer: cartCustomer(cart),
    payment_collection_id: collection?.id,
    payment_collection_stale: stale,
    reusable_session: stale
      ? undefined
      : await reusableSession(collection, { providerId: input.provider_id, totalMinor, currency, lines: orderLines }, async () => {
          const { options } = altapayOptionsFromConfig(container, input.provider_id)
          return { keys: serverKeys(options, "payment-data-seal"), pageLanguage: paymentPageLanguage(await cartLanguageHintsOf(query, cart.id), options.language) }
        }),
  }
  return new StepResponse(result)
})

/**
 * A cart that belongs to a registered customer (has_account) is paid only by that customer,
 * signed in: its AltaPay session carries their name, address and order. Guest carts follow
 * Medusa's own rule (whoever holds the cart id may check it out).
 */
function assertCustomerMayPay(cart: LoadedCart, actorId: string | undefined): void {
  if (!cart.customer_id || !cart.customer?.has_account) return
  if (!actorId) {
    throw new MedusaError(
      MedusaError.Types.UNAUTHORIZED,
      `Cart ${cart.id} belongs to a registered customer: send that customer's authentication (session cookie or Authorization: Bearer <token>) with this request.`
    )
  }
  if (actorId !== cart.customer_id) {
    throw new MedusaError(MedusaError.Types.FORBIDDEN, `Cart ${cart.id} belongs to another customer.`)
  }
}

/**
 * A cart with an authorized payment session (paid, but the cart not completed yet) gets no new
 * token: with one the browser could reserve the money a second time. Any provider's session
 * counts: a session for another registration (pp_altapay_card paid, pp_altapay_mobilepay asked)
 * would make Medusa delete the paid one.
 */
function assertNotPaid(cart: LoadedCart): void {
  const paid = (cart.payment_collection?.payment_sessions ?? []).find((s) => s?.status === "authorized")
  if (paid) {
    // NOT_ALLOWED (400), not CONFLICT: Medusa replaces a 409's message with a generic one.
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Cart ${cart.id} is already paid (payment session ${paid.id} is authorized): complete the cart (POST /store/carts/${cart.id}/complete) instead of paying again.`
    )
  }
}

function assertCurrencySupported(currency: string, supported: string[] | undefined): void {
  try {
    currencyInfo(currency)
  } catch {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `AltaPay cannot take payments in ${currency}: it is not an ISO 4217 currency.`)
  }
  if (supported && !supported.some((code) => code.toUpperCase() === currency)) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `AltaPay has no terminal for ${currency} in this store (configured: ${supported.join(", ") || "none"}). Add one to the provider's terminals option or use another region.`
    )
  }
}

/**
 * The cart's session the storefront may go on paying: the provider's own (sealed) data for the
 * cart's amount, currency and lines, and for the payment page's language now (a session made
 * before the field existed counts as the same): a customer who switched language gets a new page.
 */
async function reusableSession(
  collection: LoadedCart["payment_collection"] | undefined,
  cart: { providerId: string; totalMinor: number; currency: string; lines: OrderLine[] },
  now: () => Promise<{ keys: ServerKeys; pageLanguage: string }>
): Promise<LoadedAltaPayCart["reusable_session"]> {
  const candidates = (collection?.payment_sessions ?? []).filter((s) => !!s && s.provider_id === cart.providerId && REUSABLE_STATUSES.has(s.status))
  if (candidates.length === 0) return undefined
  const { keys, pageLanguage } = await now()
  for (const session of candidates) {
    if (!session) continue
    // Only what the provider wrote for this session: a browser writes session data too, and a
    // CUSTOMER token for the AltaPay session it names would reach someone else's payment.
    const data = provenSessionData(session, keys)
    const altapaySessionId = data?.altapay_session_id
    if (!data || !altapaySessionId || session.amount == null) continue
    if (toMinorUnits(session.amount, cart.currency) !== cart.totalMinor || (session.currency_code ?? "").toUpperCase() !== cart.currency) continue
    if (canonical(data.order_lines) !== canonical(cart.lines)) continue
    if ((data.page_language ?? pageLanguage) !== pageLanguage) continue
    return { payment_session_id: session.id, altapay_session_id: altapaySessionId }
  }
  return undefined
}

/** JSON with sorted keys and no undefined values: stored lines come back in another key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        )
      : v
  )
}
