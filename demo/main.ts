/**
 * `npm run demo`: a real Medusa store with AltaPay, end to end, on this machine.
 *
 *   embedded Postgres (demo/.data)  +  AltaPay sandbox  +  `medusa plugin:build`
 *   -> `medusa db:migrate` + seed (first run only)  ->  `medusa develop` in demo/
 *   -> one whole checkout (storefront, hosted page, callback, order, capture, refunds)
 *   -> keeps serving the admin at /app until Ctrl-C  (or exits with --once)
 */
import fs from "node:fs"
import { startSandbox, type Sandbox } from "../src/sandbox"
import { runCheckout } from "./lib/checkout"
import { runPayouts } from "./lib/payouts"
import { installPluginIntoDemo } from "./lib/install"
import { isMigrated, markMigrated, readSeed } from "./lib/database"
import { CommandFailed, medusaEnv, launchMedusa, runMedusa, stopRunningCommands, type MedusaServer } from "./lib/medusa"
import { pluginBuildIsFresh } from "./lib/plugin-build"
import { takenPorts } from "./lib/ports"
import { startPostgres } from "./lib/postgres"
import { say, slowStep } from "./lib/progress"
import { DEMO_DIR, REPO_ROOT, UsageError, readSettings, type DemoSettings } from "./lib/settings"

/** Things to stop, last started first. */
class Stack {
  private readonly stops: Array<{ name: string; stop: () => Promise<void> }> = []
  push(name: string, stop: () => Promise<void>): void {
    this.stops.push({ name, stop })
  }
  async stopAll(): Promise<void> {
    while (this.stops.length) {
      const { name, stop } = this.stops.pop()!
      await stop().catch((error: unknown) => say(`[demo] could not stop ${name}: ${error instanceof Error ? error.message : String(error)}`))
    }
  }
}

export async function main(argv: string[]): Promise<number> {
  let settings: DemoSettings
  try {
    settings = readSettings(argv)
  } catch (error) {
    if (error instanceof UsageError) {
      say(error.message)
      return 2
    }
    throw error
  }

  const taken = await takenPorts(settings.ports)
  if (taken.length) {
    for (const line of taken) say(`[demo] ${line}`)
    return 1
  }

  const started = Date.now()
  const running = new Stack()
  let stopping: Promise<number> | undefined
  const shutdown = (code: number): Promise<number> =>
    (stopping ??= (async () => {
      say("[demo] stopping Medusa, the sandbox and Postgres…")
      stopRunningCommands()
      await running.stopAll()
      return code
    })())
  const onSignal = (signal: NodeJS.Signals) => {
    say(`\n[demo] ${signal}`)
    void shutdown(signal === "SIGINT" ? 130 : 143).then((code) => process.exit(code))
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)

  try {
    if (settings.fresh) fs.rmSync(settings.dataDir, { recursive: true, force: true })
    fs.mkdirSync(settings.dataDir, { recursive: true })

    if (pluginBuildIsFresh()) say("[demo] the plugin build (.medusa/server) is up to date")
    else await slowStep("building the plugin (medusa plugin:build)", () => runMedusa(["plugin:build"], { cwd: REPO_ROOT, env: process.env, settings }))
    installPluginIntoDemo()

    // Each is registered for stopping as soon as it runs, whichever of the two fails.
    const [postgres, sandbox] = await slowStep("starting Postgres and the AltaPay sandbox", () =>
      Promise.all([
        startPostgres(settings.dataDir, settings.ports.postgres).then((pg) => (running.push("Postgres", pg.stop), pg)),
        startSandbox({
          port: settings.ports.sandbox,
          username: settings.altapay.username,
          password: settings.altapay.password,
          callbackSecret: settings.altapay.callbackSecret,
          // AltaPay pays out a bank day after a capture; the demo's sandbox pays out at once.
          fundingDelayMs: 0,
          // Apple Pay, Google Pay, Vipps and Swish terminals beside the card and MobilePay ones.
          walletTerminals: true,
          // A card terminal that surcharges (not allowed on EU consumer cards): the plugin says so.
          ...(process.env.DEMO_SURCHARGE_PERCENT ? { surchargePercent: Number(process.env.DEMO_SURCHARGE_PERCENT) } : {}),
        }).then((sb) => (running.push("the AltaPay sandbox", () => sb.close()), sb)),
      ])
    )

    const env = medusaEnv({ settings, databaseUrl: postgres.databaseUrl, sandboxUrl: sandbox.url })
    const inDemo = { cwd: DEMO_DIR, env, settings }
    if (postgres.created || !isMigrated(settings.dataDir)) {
      await slowStep("migrating the database (medusa db:migrate)", () => runMedusa(["db:migrate"], inDemo))
      markMigrated(settings.dataDir)
    }
    if (postgres.created || !readSeed(settings.dataDir)) {
      await slowStep("seeding Denmark, DKK, 25 % VAT, products, shipping, admin (medusa exec)", () => runMedusa(["exec", "./src/scripts/seed.ts"], inDemo))
    }
    const seed = readSeed(settings.dataDir)
    if (!seed) throw new CommandFailed("The seed script wrote no seed file; see demo/.data/medusa.log.")

    const medusa = launchMedusa({ env, settings })
    running.push("Medusa", medusa.stop)
    await slowStep(`starting Medusa (medusa develop${settings.admin ? ", admin at /app" : ""})`, () => medusa.ready())
    say(`[demo] ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)

    await runCheckout({ medusaUrl: medusa.url, seed, adminLogin: settings.adminLogin, sandbox })
    await runPayouts({ medusaUrl: medusa.url, adminLogin: settings.adminLogin, sandbox })
    printWhereToLook(settings, medusa, sandbox, seed.publishableKey)
    say(`[demo] total ${((Date.now() - started) / 1000).toFixed(1)} s`)

    if (settings.once) return await shutdown(0)
    say("[demo] running; Ctrl-C stops Medusa, the sandbox and Postgres.")
    const code = await medusa.exited
    if (stopping) return await stopping
    say(`[demo] Medusa exited (code ${code}); its log: ${medusa.logFile}`)
    return await shutdown(1)
  } catch (error) {
    say(`\n[demo] ${error instanceof Error ? error.message : String(error)}`)
    if (!(error instanceof CommandFailed)) say(`[demo] Medusa's log: ${settings.dataDir}/medusa.log (DEMO_DEBUG=1 prints the stack)`)
    if (process.env.DEMO_DEBUG && error instanceof Error) say(error.stack)
    return await shutdown(1)
  }
}

function printWhereToLook(settings: DemoSettings, medusa: MedusaServer, sandbox: Sandbox, publishableKey: string): void {
  const lines = [
    settings.admin
      ? `Admin        ${medusa.url}/app   login ${settings.adminLogin.email} / ${settings.adminLogin.password}`
      : `Admin        off (--once); run \`npm run demo\` to get ${medusa.url}/app`,
    `Store API    ${medusa.url}/store   x-publishable-api-key: ${publishableKey}`,
    `AltaPay      sandbox at ${sandbox.url}, hosted payment pages at ${sandbox.hostedPageUrl}/<paymentId>`,
    `Payouts      ${settings.admin ? `${medusa.url}/app/payouts` : "the admin's Payouts page"}: AltaPay's funding files matched to orders`,
    `Callbacks    ${medusa.url}/hooks/payment/altapay_card, …/altapay_mobilepay, …/altapay_applepay`,
    `Storefront   ${settings.storeUrl}: landing page /api/altapay/landing (successUrl, failureUrl; storefronts/nextjs-starter)`,
    `Returns      AltaPay posts the customer's return to ${medusa.url}/altapay/return/<card|mobilepay>/success|failure`,
    `Try          a card payment of 110.00 DKK: AltaPay's fraud check says Deny, the reservation is released, no order`,
    `             102.00 DKK: Challenge, the order waits for Approve capture in its AltaPay panel; 101.00: Accept`,
    `             Apple Pay (pp_altapay_applepay) as its own payment option; the card option asks the store to verify the cart before AltaPay charges`,
    `Logs         ${settings.dataDir}/medusa.log, postgres.log`,
  ]
  for (const line of lines) say(line)
}
