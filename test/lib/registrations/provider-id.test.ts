/**
 * `providerId` follows the registration's `id` in medusa-config (issue 33, "Traps a merchant falls
 * into"): Medusa names the provider pp_altapay_<id> and serves its webhook at
 * /hooks/payment/altapay_<id>, so a providerId that differs sent every callback and customer
 * return to a provider the store does not have. Now the id is taken from the entry where the entry
 * is known (the routes read medusa-config; the provider's loader finds its entry among the Payment
 * module's providers and notes it for the constructor), and a providerId that differs is refused
 * with a message naming both.
 */
import { MedusaAppMigrateUp, MedusaModule } from "@medusajs/framework/modules-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, createMedusaContainer } from "@medusajs/framework/utils"
import { asValue } from "@medusajs/framework/awilix"
import path from "node:path"
import { altapayOptionsFromConfig } from "../../../src/lib/registrations/from-config"
import { notificationUrl, parseAltaPayOptions, type AltaPayOptions } from "../../../src/lib/registrations/options"
import { noteRegistration, notedRegistration, registrationOf } from "../../../src/lib/registrations/registration-id"
import { altapayRegistrations } from "../../../src/lib/registrations/registrations"
import { AltaPayProviderService } from "../../../src/providers/altapay"
import { returnUrlsFor } from "../../../src/providers/altapay/return-urls"

const PROVIDER = path.join(__dirname, "..", "..", "..", "src", "providers", "altapay", "index.ts")

const base = (): Record<string, unknown> => ({
  checkoutUrl: "https://testgateway.altapaysecure.com",
  gatewayUrl: "https://testgateway.altapaysecure.com",
  username: "shop-api-user",
  password: "shop-api-password",
  backendUrl: "https://shop.example",
  paymentDataSecret: "provider-id-test-payment-data-secret-0123456789",
  successUrl: "https://store.example/landing?outcome={outcome}",
  failureUrl: "https://store.example/landing?outcome={outcome}",
})

const MISMATCH = /providerId: is "altapay" but this registration's id in medusa-config is "card"[\s\S]*Remove providerId \(it follows the id\) or set it to "card"; keep the id/

function storeWith(providers: unknown[]): MedusaContainer {
  const configModule = { modules: { payment: { resolve: "@medusajs/medusa/payment", options: { providers } } } }
  return { resolve: () => configModule, hasRegistration: () => false } as unknown as MedusaContainer
}

/** The provider's options as the service works with them (protected: read here only). */
const optionsOf = (service: AltaPayProviderService): AltaPayOptions => (service as unknown as { options_: AltaPayOptions }).options_

describe("providerId and the registration's id", () => {
  it("without providerId, the registration's id names the callback and return URLs", () => {
    const parsed = parseAltaPayOptions(base(), { id: "card" })
    if (!("options" in parsed)) throw new Error(parsed.problems.join("; "))
    expect(parsed.options.providerId).toBe("card")
    expect(notificationUrl(parsed.options)).toBe("https://shop.example/hooks/payment/altapay_card")
    expect(returnUrlsFor(parsed.options)).toEqual({ success: "https://shop.example/altapay/return/card/success", failure: "https://shop.example/altapay/return/card/failure" })
  })

  it("a providerId equal to the id is accepted (configs written before it followed the id)", () => {
    expect(parseAltaPayOptions({ ...base(), providerId: "card" }, { id: "card" })).toHaveProperty("options.providerId", "card")
  })

  it("a providerId that differs from the id is refused, naming both and saying which to change", () => {
    const parsed = parseAltaPayOptions({ ...base(), providerId: "altapay" }, { id: "card" })
    expect(parsed).toHaveProperty("problems")
    expect((parsed as { problems: string[] }).problems.join("\n")).toMatch(MISMATCH)
  })

  it("an entry without an id is refused (Medusa would name it pp_altapay, which the plugin's URLs do not)", () => {
    expect((parseAltaPayOptions(base(), { id: undefined }) as { problems: string[] }).problems.join("\n")).toMatch(
      /^id: the AltaPay registration has no id in medusa-config; give it one, e\.g\. id: "altapay"/
    )
  })

  it("without a known entry (a provider built by hand), providerId keeps its option or default", () => {
    expect(parseAltaPayOptions(base())).toHaveProperty("options.providerId", "altapay")
    expect(parseAltaPayOptions({ ...base(), providerId: "card" })).toHaveProperty("options.providerId", "card")
  })
})

describe("the routes' view of a registration (medusa-config)", () => {
  it("takes providerId from the entry's id", () => {
    const store = storeWith([{ resolve: "medusa-payment-altapay/providers/altapay", id: "card", options: base() }])
    expect(altapayOptionsFromConfig(store, "pp_altapay_card").options.providerId).toBe("card")
  })

  it("refuses an entry whose providerId differs, and leaves it out of the registrations the jobs run", () => {
    const store = storeWith([
      { resolve: "medusa-payment-altapay/providers/altapay", id: "card", options: { ...base(), providerId: "altapay" } },
      { resolve: "medusa-payment-altapay/providers/altapay", id: "mobilepay", options: base() },
    ])
    expect(() => altapayOptionsFromConfig(store, "pp_altapay_card")).toThrow(MISMATCH)
    expect(altapayRegistrations(store).map((r) => [r.providerId, r.options.providerId])).toEqual([["pp_altapay_mobilepay", "mobilepay"]])
  })
})

describe("the provider's view (what Medusa gives its loader and constructor)", () => {
  it("finds its entry by the options object itself; several ids on one object cannot be told apart", () => {
    const card = base()
    const shared = base()
    const providers = [
      { id: "card", options: card },
      { id: "a", options: shared },
      { id: "b", options: shared },
    ]
    expect(registrationOf(card, providers)).toEqual({ id: "card" })
    expect(registrationOf(shared, providers)).toBeUndefined()
    expect(registrationOf(base(), providers)).toBeUndefined()
  })

  it("the constructor uses the id its loader noted for the options object", () => {
    const options = base()
    expect(optionsOf(new AltaPayProviderService({}, options as never)).providerId).toBe("altapay")
    noteRegistration(options, { id: "card" })
    expect(optionsOf(new AltaPayProviderService({}, options as never)).providerId).toBe("card")
    const mismatched = { ...base(), providerId: "altapay" }
    noteRegistration(mismatched, { id: "card" })
    expect(() => new AltaPayProviderService({}, mismatched as never)).toThrow(MISMATCH)
  })
})

/** Medusa's migration entry point (what `medusa db:migrate` runs) with `providers`: it runs the provider's loader. */
async function migrateWith(providers: { id?: string; options: Record<string, unknown> }[]): Promise<{ message?: string } | undefined> {
  const container = createMedusaContainer()
  const log = (): void => undefined
  container.register(ContainerRegistrationKeys.LOGGER, asValue({ error: log, warn: log, info: log, debug: log, log }))
  // Medusa rejects its module's cached loading promise too, which nothing awaits: handled here.
  const loading = (MedusaModule as unknown as { loading_: Map<string, Promise<unknown>> }).loading_
  const set = loading.set
  loading.set = function (key, promise) {
    promise.catch(() => undefined)
    return set.call(this, key, promise)
  }
  try {
    return await MedusaAppMigrateUp({
      sharedContainer: container,
      // Nothing listens here: a run that got past loading the modules fails on the connection instead.
      sharedResourcesConfig: { database: { clientUrl: "postgres://nobody@127.0.0.1:9/none", driverOptions: { connection: { connectTimeout: 500 } } } },
      modulesConfig: { payment: { resolve: "@medusajs/medusa/payment", options: { providers: providers.map((p) => ({ resolve: PROVIDER, ...p })) } } },
    }).then(
      () => undefined,
      (error: unknown) => error as { message?: string }
    )
  } finally {
    loading.set = set
    MedusaModule.clearInstances()
  }
}

describe("loaded the way Medusa loads it (MedusaAppMigrateUp runs the provider's loader)", () => {
  jest.setTimeout(30_000)

  it("a providerId that differs from the entry's id stops Medusa with the message", async () => {
    const failure = await migrateWith([{ id: "card", options: { ...base(), providerId: "altapay" } }])
    expect(failure?.message).toMatch(/AltaPay provider options are invalid:/)
    expect(failure?.message).toMatch(MISMATCH)
  })

  it("without providerId, the loader notes the entry's id and the provider built on those options uses it", async () => {
    const card = base()
    const mobilepay = base()
    const failure = await migrateWith([
      { id: "card", options: card },
      { id: "mobilepay", options: mobilepay },
    ])
    // Got past the loaders: the only failure is the database nobody serves.
    expect(failure?.message ?? "").not.toMatch(/AltaPay/)
    expect(notedRegistration(card)).toEqual({ id: "card" })
    expect(notedRegistration(mobilepay)).toEqual({ id: "mobilepay" })
    expect(notificationUrl(optionsOf(new AltaPayProviderService({}, card as never)))).toBe("https://shop.example/hooks/payment/altapay_card")
    expect(notificationUrl(optionsOf(new AltaPayProviderService({}, mobilepay as never)))).toBe("https://shop.example/hooks/payment/altapay_mobilepay")
  })
})
