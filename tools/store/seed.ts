/**
 * A small store for the AltaPay plugin, made with Medusa's own core-flows workflows as Medusa's
 * seed script does: a region with tax, a sales channel and publishable key, a stock location,
 * a shipping option and two products. Shared by the integration tests
 * (tools/test-store/store.ts re-exports it) and the demo (demo/src/scripts/seed.ts), so
 * the demo's store is the one the tests check.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createPricePreferencesWorkflow,
  createProductsWorkflow,
  createPromotionsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRatesWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
} from "@medusajs/medusa/core-flows"

/** The id Medusa gives the AltaPay provider registered with id "altapay" (pp_<identifier>_<id>). */
export const ALTAPAY_PROVIDER_ID = "pp_altapay_altapay"

export type StoreCurrency = "dkk" | "jpy" | "eur"

export interface SeedStoreOptions {
  /** Region currency (default dkk). dkk: Denmark, 25 % VAT; jpy: Japan, 10 %; eur: Germany, 19 %. */
  currency?: StoreCurrency
  /** Prices (products and shipping) include tax (a region price preference). */
  taxInclusive?: boolean
  /** A second tax rate (percent) on the second product ("tea"), overriding the region's rate. */
  reducedTaxRate?: number
  /** Adds an active, manual promotion: `code`, percentage off items. */
  promotion?: { code: string; percent: number }
  /** Shipping price in major units (default 49 dkk/eur, 700 jpy). */
  shippingAmount?: number
  /** Payment providers of the region (default pp_altapay_altapay and pp_system_default). */
  paymentProviders?: string[]
}

export interface SeededProduct {
  id: string
  handle: string
  title: string
  variantId: string
  sku: string
  /** Major units in the region currency. */
  price: number
}

export interface SeededStore {
  currency: StoreCurrency
  countryCode: string
  region: { id: string; name: string; currency_code: string }
  salesChannel: { id: string }
  publishableKey: string
  stockLocation: { id: string }
  shippingProfile: { id: string }
  shippingOption: { id: string; name: string }
  /** coffee (region rate), tea (reducedTaxRate when given). */
  products: { coffee: SeededProduct; tea: SeededProduct }
  promotionCode?: string
}

const REGIONS: Record<StoreCurrency, { country: string; name: string; vat: number; prices: { coffee: number; tea: number; shipping: number } }> = {
  dkk: { country: "dk", name: "Denmark", vat: 25, prices: { coffee: 89.95, tea: 45.5, shipping: 49 } },
  eur: { country: "de", name: "Germany", vat: 19, prices: { coffee: 12.99, tea: 6.49, shipping: 4.9 } },
  jpy: { country: "jp", name: "Japan", vat: 10, prices: { coffee: 1980, tea: 735, shipping: 700 } },
}

/** A region, tax region, sales channel, publishable key, stock location, shipping option and two products. */
export async function seedStore(container: MedusaContainer, options: SeedStoreOptions = {}): Promise<SeededStore> {
  const currency = options.currency ?? "dkk"
  const spec = REGIONS[currency]
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const fulfillment = container.resolve(Modules.FULFILLMENT)

  const {
    result: [salesChannel],
  } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: `Webshop ${currency.toUpperCase()}` }] } })

  const {
    result: [apiKey],
  } = await createApiKeysWorkflow(container).run({ input: { api_keys: [{ title: "Storefront", type: "publishable", created_by: "" }] } })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: apiKey.id, add: [salesChannel.id] } })

  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: spec.name,
          currency_code: currency,
          countries: [spec.country],
          payment_providers: options.paymentProviders ?? [ALTAPAY_PROVIDER_ID, "pp_system_default"],
          automatic_taxes: true,
          is_tax_inclusive: !!options.taxInclusive,
        },
      ],
    },
  })

  if (options.taxInclusive) {
    // The region's preference covers region-priced prices only; product and shipping prices here
    // are per currency, so the currency gets the preference too.
    await createPricePreferencesWorkflow(container).run({ input: [{ attribute: "currency_code", value: currency, is_tax_inclusive: true }] })
  }

  const {
    result: [taxRegion],
  } = await createTaxRegionsWorkflow(container).run({
    input: [{ country_code: spec.country, provider_id: "tp_system", default_tax_rate: { rate: spec.vat, code: `VAT${spec.vat}`, name: `VAT ${spec.vat} %` } }],
  })

  const {
    result: [stockLocation],
  } = await createStockLocationsWorkflow(container).run({
    input: { locations: [{ name: `Warehouse ${spec.name}`, address: { address_1: "Lagervej 1", city: "Copenhagen", country_code: spec.country.toUpperCase() } }] },
  })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: stockLocation.id, add: [salesChannel.id] } })
  await link.create({ [Modules.STOCK_LOCATION]: { stock_location_id: stockLocation.id }, [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" } })

  const existingProfiles = await fulfillment.listShippingProfiles({ type: "default" })
  const shippingProfile = existingProfiles[0] ?? (await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default", type: "default" }] } })).result[0]

  const fulfillmentSet = await fulfillment.createFulfillmentSets({
    name: `Shipping from ${spec.name}`,
    type: "shipping",
    service_zones: [{ name: spec.name, geo_zones: [{ country_code: spec.country, type: "country" }] }],
  })
  await link.create({ [Modules.STOCK_LOCATION]: { stock_location_id: stockLocation.id }, [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id } })

  const shippingAmount = options.shippingAmount ?? spec.prices.shipping
  const {
    result: [shippingOption],
  } = await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Standard delivery",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: fulfillmentSet.service_zones[0].id,
        shipping_profile_id: shippingProfile.id,
        type: { label: "Standard", description: "2-3 days", code: "standard" },
        prices: [
          { currency_code: currency, amount: shippingAmount },
          { region_id: region.id, amount: shippingAmount },
        ],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  })

  const product = (key: "coffee" | "tea", title: string, sku: string, thumbnail: string) => ({
    title,
    handle: `${key}-${currency}`,
    status: "published" as const,
    shipping_profile_id: shippingProfile.id,
    thumbnail,
    options: [{ title: "Size", values: ["Standard"] }],
    variants: [
      {
        title: "Standard",
        sku: `${sku}-${currency.toUpperCase()}`,
        options: { Size: "Standard" },
        manage_inventory: false,
        prices: [{ currency_code: currency, amount: spec.prices[key] }],
      },
    ],
    sales_channels: [{ id: salesChannel.id }],
  })
  const { result: created } = await createProductsWorkflow(container).run({
    input: {
      products: [
        product("coffee", "Coffee beans", "COFFEE-1KG", "https://images.shop.example/coffee.png"),
        product("tea", "Green tea", "TEA-100G", "https://images.shop.example/tea.png"),
      ],
    },
  })
  const seeded = (key: "coffee" | "tea"): SeededProduct => {
    const p = created.find((c) => c.handle === `${key}-${currency}`)!
    const variant = p.variants[0]
    return { id: p.id, handle: p.handle, title: p.title, variantId: variant.id, sku: variant.sku ?? "", price: spec.prices[key] }
  }
  const products = { coffee: seeded("coffee"), tea: seeded("tea") }

  if (options.reducedTaxRate !== undefined) {
    await createTaxRatesWorkflow(container).run({
      input: [
        {
          tax_region_id: taxRegion.id,
          rate: options.reducedTaxRate,
          code: `REDUCED${options.reducedTaxRate}`,
          name: `Reduced ${options.reducedTaxRate} %`,
          rules: [{ reference: "product", reference_id: products.tea.id }],
        },
      ],
    })
  }

  if (options.promotion) {
    await createPromotionsWorkflow(container).run({
      input: {
        promotionsData: [
          {
            code: options.promotion.code,
            type: "standard",
            status: "active",
            is_automatic: false,
            application_method: { type: "percentage", target_type: "items", allocation: "across", value: options.promotion.percent, currency_code: currency },
          },
        ],
      },
    })
  }

  return {
    currency,
    countryCode: spec.country,
    region: { id: region.id, name: region.name, currency_code: region.currency_code },
    salesChannel: { id: salesChannel.id },
    publishableKey: apiKey.token,
    stockLocation: { id: stockLocation.id },
    shippingProfile: { id: shippingProfile.id },
    shippingOption: { id: shippingOption.id, name: shippingOption.name },
    products,
    ...(options.promotion ? { promotionCode: options.promotion.code } : {}),
  }
}
