/** Medusa's payment context customer -> AltaPay's session customer. */
import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import type { CheckoutCustomer } from "../../altapay"

export function toCheckoutCustomer(customer: PaymentCustomerDTO | undefined): CheckoutCustomer | undefined {
  if (!customer) return undefined
  const address = customer.billing_address ?? undefined
  const billingAddress = address
    ? compact({
        street: [address.address_1, address.address_2].filter(Boolean).join(", ") || undefined,
        city: address.city ?? undefined,
        zipCode: address.postal_code ?? undefined,
        region: address.province ?? undefined,
        country: address.country_code?.toUpperCase() ?? undefined,
      })
    : undefined
  return compact({
    email: customer.email || undefined,
    firstName: customer.first_name ?? undefined,
    lastName: customer.last_name ?? undefined,
    phone: customer.phone ?? undefined,
    billingAddress,
  })
}

function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== "")) as T
}
