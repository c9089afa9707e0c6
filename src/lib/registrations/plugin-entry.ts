/**
 * Whether the store loads the plugin's routes: the customer return endpoint
 * (/altapay/return/<id>/success|failure), the saved-card return, the admin routes, and with them
 * the follow-up and payouts jobs. They come with the `plugins` entry of medusa-config, which the
 * provider (a `modules` entry) cannot do without once AltaPay is given the return endpoint: a
 * store without it answers AltaPay's return post with 404 after the customer paid.
 *
 * Medusa serves the routes of `<plugin>/api` for every plugin getResolvedPlugins finds, and of the
 * store's own `src/api` (Medusa 2.21.2 @medusajs/medusa loaders/api.js). This asks the same
 * function, from the directory Medusa starts in, whether one of them holds the return endpoint.
 */
import type { ConfigModule } from "@medusajs/framework/types"
import { getResolvedPlugins } from "@medusajs/framework/utils"
import fs from "node:fs"
import path from "node:path"
import type { AltaPayOptions } from "./options"

/** The return endpoint's route file under a plugin's (or the store's) source directory. */
export const RETURN_ROUTE = path.join("api", "altapay", "return", "[provider]", "[kind]")

export type PluginRoutes = { found: true; at: string } | { found: false; searched: string[] } | { found: "unknown"; reason: string }

/** Where Medusa would find the plugin's return endpoint for this config, started in `rootDirectory`. */
export async function findPluginRoutes(configModule: ConfigModule, rootDirectory: string): Promise<PluginRoutes> {
  let plugins: { resolve: string }[]
  try {
    plugins = await getResolvedPlugins(rootDirectory, configModule, true)
  } catch (error) {
    return { found: "unknown", reason: error instanceof Error ? error.message : String(error) }
  }
  const searched = plugins.map((plugin) => plugin.resolve)
  for (const dir of searched) {
    const route = path.join(dir, RETURN_ROUTE)
    if (["route.js", "route.ts"].some((file) => fs.existsSync(path.join(route, file)))) return { found: true, at: dir }
  }
  return { found: false, searched }
}

/** What this registration loses without the plugin's routes: the reasons it needs them, most urgent first. */
export function needsOfPlugin(options: Pick<AltaPayOptions, "successUrl" | "failureUrl" | "savedCards" | "payouts">): { refuse: string[]; warn: string[] } {
  const refuse = [
    ...(options.successUrl || options.failureUrl
      ? ["successUrl/failureUrl: AltaPay posts the customer's return to the plugin's /altapay/return endpoint, which would answer 404 after the customer paid"]
      : []),
    ...(options.savedCards.enabled ? ["savedCards: adding a card returns through the plugin's /altapay/saved-card-return endpoint"] : []),
  ]
  const warn = [
    "the follow-up job that completes carts whose callback was lost",
    ...(options.payouts.enabled ? ["the payouts import (payouts.enabled)"] : []),
    "the admin routes and the order page's AltaPay panel",
  ]
  return { refuse, warn }
}

/** The message for a registration whose store does not load the plugin's routes. */
export function missingPluginMessage(providerId: string, reasons: string[]): string {
  return (
    `AltaPay: pp_altapay_${providerId} needs the plugin's routes, and this store does not load them: add ` +
    `plugins: [{ resolve: "medusa-payment-altapay", options: {} }] to medusa-config (beside the provider in the Payment module). Without it: ${reasons.join("; ")}.`
  )
}
