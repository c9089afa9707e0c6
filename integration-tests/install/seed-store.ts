/**
 * The scratch store's seed, run by the store's own Medusa (`medusa exec`, with medusa-from-store.js
 * so its @medusajs imports are the store's): tools/test-store/store.ts's Danish store, whose
 * region pays with pp_altapay_altapay as medusa-config.example.ts registers it. Writes the seed to
 * SEED_FILE for the spec.
 */
import fs from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { seedStore } from "../../tools/test-store/store"

export default async function seedScratchStore({ container }: ExecArgs): Promise<void> {
  const out = process.env.SEED_FILE
  if (!out) throw new Error("SEED_FILE is not set: integration-tests/install/merchant-install.spec.ts runs this seed.")
  fs.writeFileSync(out, JSON.stringify(await seedStore(container, { currency: "dkk" })))
}
