import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { altapayOptionsFromConfig, altapayProviderIds } from "../../src/lib/registrations/from-config"

const base = {
  checkoutUrl: "https://testgateway.altapaysecure.com",
  gatewayUrl: "https://testgateway.altapaysecure.com",
  username: "shop-api-user",
  password: "shop-api-password",
  backendUrl: "https://shop.example",
  paymentDataSecret: "from-config-payment-data-secret-0123456789",
}
const registration = (id: string, options: Record<string, unknown>) => ({
  resolve: "medusa-payment-altapay/providers/altapay",
  id,
  options: { ...base, providerId: id, ...options },
})

/** A container that holds only what these functions read: Medusa's config module. */
function storeWith(providers: unknown[]): MedusaContainer {
  const configModule = { modules: { payment: { resolve: "@medusajs/medusa/payment", options: { providers } } } }
  return { resolve: () => configModule } as unknown as MedusaContainer
}

const twoTerminals = storeWith([
  { resolve: "@medusajs/medusa/payment-stripe", id: "stripe", options: {} },
  registration("card", { terminal: "Shop Card" }),
  registration("mobilepay", { terminal: "Shop MobilePay", username: "mobilepay-api-user" }),
])

function refusal(run: () => unknown): { type: string; message: string } {
  try {
    run()
  } catch (error) {
    if (error instanceof MedusaError) return { type: error.type, message: error.message }
    throw error
  }
  throw new Error("expected a refusal")
}

describe("which AltaPay registration a route works with", () => {
  it("lists every AltaPay registration of the Payment module, in config order, and nothing else", () => {
    expect(altapayProviderIds(twoTerminals)).toEqual(["pp_altapay_card", "pp_altapay_mobilepay"])
  })

  it("a provider id picks that registration's own options (terminal, API user)", () => {
    const mobilepay = altapayOptionsFromConfig(twoTerminals, "pp_altapay_mobilepay")
    expect(mobilepay).toMatchObject({ providerId: "pp_altapay_mobilepay", options: { terminal: "Shop MobilePay", username: "mobilepay-api-user", providerId: "mobilepay" } })
    expect(altapayOptionsFromConfig(twoTerminals, "pp_altapay_card").options).toMatchObject({ terminal: "Shop Card", username: "shop-api-user" })
  })

  it("without a provider id: the only registration, or a 400 naming the choices when there are several", () => {
    const single = storeWith([registration("altapay", { terminal: "Shop" })])
    expect(altapayOptionsFromConfig(single)).toMatchObject({ providerId: "pp_altapay_altapay", options: { terminal: "Shop" } })
    expect(refusal(() => altapayOptionsFromConfig(twoTerminals))).toEqual({
      type: MedusaError.Types.INVALID_DATA,
      message: "This store registers several AltaPay providers: give provider_id, one of pp_altapay_card, pp_altapay_mobilepay.",
    })
  })

  it("a provider id that is not one of the store's AltaPay registrations is a 400 naming the choices", () => {
    for (const id of ["pp_altapay_vipps", "pp_stripe_stripe", "card"]) {
      expect(refusal(() => altapayOptionsFromConfig(twoTerminals, id))).toEqual({
        type: MedusaError.Types.INVALID_DATA,
        message: `provider_id "${id}" is not an AltaPay provider of this store: use one of pp_altapay_card, pp_altapay_mobilepay.`,
      })
    }
  })

  it("no AltaPay registration at all says how to add one", () => {
    expect(refusal(() => altapayOptionsFromConfig(storeWith([]), "pp_altapay_card")).message).toMatch(/not configured: add medusa-payment-altapay\/providers\/altapay/)
  })
})
