/**
 * Seeds the demo store once: a Danish region (DKK, 25 % VAT) that pays with AltaPay, a sales
 * channel with a publishable key, a warehouse with shipping, two products, and an admin user.
 * Run by `npm run demo` through `medusa exec ./src/scripts/seed.ts`; on a seeded database it
 * only re-reads what the demo needs. Writes that to DEMO_SEED_FILE for the demo driver.
 */
import fs from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createUsersWorkflow, updateRegionsWorkflow } from "@medusajs/medusa/core-flows"
import { seedStore, type SeededStore } from "../../../tools/store/seed"

/** The part of the seed the demo driver reads back (demo/lib/seed-file.ts). */
export interface DemoSeed {
  publishableKey: string
  regionId: string
  salesChannelId: string
  shippingOptionId: string
  variantIds: string[]
  adminEmail: string
}

const SEED_MARKER = "altapay-demo"

/** The AltaPay registrations of demo/medusa-config.ts (one per terminal) and Medusa's manual payment. */
const PAYMENT_PROVIDERS = ["pp_altapay_card", "pp_altapay_mobilepay", "pp_altapay_applepay", "pp_system_default"]

export default async function seedDemo({ container }: ExecArgs): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const out = process.env.DEMO_SEED_FILE
  const email = process.env.DEMO_ADMIN_EMAIL ?? "admin@altapay.demo"
  const password = process.env.DEMO_ADMIN_PASSWORD ?? "altapay-demo"
  if (!out) throw new Error("DEMO_SEED_FILE is not set: run the seed through `npm run demo`.")

  const store = container.resolve(Modules.STORE)
  const [current] = await store.listStores({}, { take: 1 })
  const previous = current?.metadata?.[SEED_MARKER] as DemoSeed | undefined
  if (previous) {
    logger.info("Demo store already seeded; reusing it.")
    // A database seeded before the demo had one registration per terminal.
    await updateRegionsWorkflow(container).run({ input: { selector: { id: previous.regionId }, update: { payment_providers: PAYMENT_PROVIDERS } } })
    fs.writeFileSync(out, JSON.stringify(previous, null, 2))
    return
  }

  const seeded: SeededStore = await seedStore(container, { currency: "dkk", paymentProviders: PAYMENT_PROVIDERS })
  await createAdminUser(container, email, password)
  const seed: DemoSeed = {
    publishableKey: seeded.publishableKey,
    regionId: seeded.region.id,
    salesChannelId: seeded.salesChannel.id,
    shippingOptionId: seeded.shippingOption.id,
    variantIds: [seeded.products.coffee.variantId, seeded.products.tea.variantId],
    adminEmail: email,
  }
  // The store record carries the marker, so a reused database is never seeded twice.
  const details = {
    name: "AltaPay demo store",
    supported_currencies: [{ currency_code: "dkk", is_default: true }],
    default_sales_channel_id: seeded.salesChannel.id,
    default_region_id: seeded.region.id,
    metadata: { ...current?.metadata, [SEED_MARKER]: seed },
  }
  if (current) await store.updateStores(current.id, details)
  else await store.createStores(details)
  fs.writeFileSync(out, JSON.stringify(seed, null, 2))
  logger.info(`Demo store seeded; admin ${email}.`)
}

/** What `medusa user -e ... -p ...` does, without booting Medusa a second time. */
async function createAdminUser(container: ExecArgs["container"], email: string, password: string): Promise<void> {
  const auth = container.resolve(Modules.AUTH)
  const { result: users } = await createUsersWorkflow(container).run({ input: { users: [{ email, first_name: "Demo", last_name: "Admin" }] } })
  const { authIdentity, error } = await auth.register("emailpass", { body: { email, password } })
  if (error || !authIdentity) throw new Error(`Could not register the admin login ${email}: ${error}`)
  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: users[0].id } })
}
