/** Medusa's customer and cart addresses -> AltaPay's session customer. */
import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import { customerSchema, type CheckoutCustomer } from "../../altapay/checkout-schemas"

interface CartAddress {
  first_name?: string | null
  last_name?: string | null
  address_1?: string | null
  address_2?: string | null
  city?: string | null
  postal_code?: string | null
  province?: string | null
  country_code?: string | null
  phone?: string | null
}

/** The cart fields cartCustomer reads: what Medusa knows of the buyer, guests included. */
export const CART_FIELDS_FOR_CUSTOMER = ["email", "billing_address.*", "shipping_address.*"]

/** The buyer as the cart knows them (also for guests, whom Medusa passes no customer for). */
export function cartCustomer(cart: { email?: string | null; billing_address?: CartAddress | null; shipping_address?: CartAddress | null }): CheckoutCustomer {
  const billing = cart.billing_address ?? cart.shipping_address ?? undefined
  return compact({
    email: cart.email || undefined,
    firstName: billing?.first_name ?? undefined,
    lastName: billing?.last_name ?? undefined,
    phone: billing?.phone ?? undefined,
    billingAddress: billing ? address(billing) : undefined,
    shippingAddress: cart.shipping_address ? address(cart.shipping_address) : undefined,
  })
}

/**
 * The session customer, which OrderDetails makes mandatory: Medusa's signed-in customer, completed by
 * the cart's e-mail and addresses, from the store route (context.altapay.customer) or, on Medusa's own
 * store route, the cart the provider loaded (`loaded`). Undefined only when Medusa tells nothing of
 * the buyer (a guest, with neither the store route nor the `query` dependency).
 */
export function sessionCustomer(context: unknown, loaded?: CheckoutCustomer): CheckoutCustomer | undefined {
  const fromMedusa = toCheckoutCustomer((context as { customer?: PaymentCustomerDTO } | undefined)?.customer)
  const parsed = customerSchema.safeParse((context as { altapay?: { customer?: unknown } } | undefined)?.altapay?.customer)
  const fromRoute = parsed.success && Object.keys(parsed.data).length > 0 ? parsed.data : undefined
  const fromCart = fromRoute ?? (loaded && Object.keys(loaded).length > 0 ? loaded : undefined)
  if (!fromMedusa && !fromCart) return undefined
  return compact({ ...fromCart, ...fromMedusa, billingAddress: fromCart?.billingAddress ?? fromMedusa?.billingAddress })
}

function address(a: CartAddress) {
  return compact({
    firstName: a.first_name ?? undefined,
    lastName: a.last_name ?? undefined,
    street: [a.address_1, a.address_2].filter(Boolean).join(", ") || undefined,
    city: a.city ?? undefined,
    zipCode: a.postal_code ?? undefined,
    region: a.province ?? undefined,
    country: a.country_code?.toUpperCase() ?? undefined,
  })
}

export function toCheckoutCustomer(customer: PaymentCustomerDTO | undefined): CheckoutCustomer | undefined {
  if (!customer) return undefined
  const billing = customer.billing_address ?? undefined
  return compact({
    email: customer.email || undefined,
    firstName: customer.first_name ?? undefined,
    lastName: customer.last_name ?? undefined,
    phone: customer.phone ?? undefined,
    billingAddress: billing ? address(billing) : undefined,
  })
}

function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== "")) as T
}
