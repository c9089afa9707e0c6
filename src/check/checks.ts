/**
 * `altapay-check`: what a store's go-live can check before the first payment. The store's
 * configuration (the plugin entry, each AltaPay registration's options parsed with the provider's
 * own schema, its providerId, set-up.ts) and, per registration, that AltaPay answers: the Checkout
 * API issues a MERCHANT token, the merchant API lists the API user's terminals (getTerminals) and
 * knows every terminal the options name (terminals.ts), and the funding files can be listed when
 * payouts are on. Nothing is created at AltaPay: every call is a read or the token every session
 * starts with. With `reach`, test posts go to the store's public callback URLs (reach.ts).
 *
 * Each check is one line (check-line.ts). With `production`, what only a test set-up may have (a
 * local sandbox, AltaPay's test gateway, allowInsecureUrls, no callbackSecret, URLs AltaPay or the
 * customer cannot reach) is a problem too.
 */
import type { ConfigModule } from "@medusajs/framework/types"
import {
  AltaPayAuthError,
  AltaPayGatewayError,
  AltaPayNetworkError,
  AltaPayTimeoutError,
  createAltaPayClient,
  type AltaPayClient,
  type AltaPayClientOptions,
  type AltaPayTerminal,
} from "../altapay"
import { altapayProviderId, findAltaPayProviderEntries } from "../lib/registrations/from-config"
import { parseAltaPayOptions, type AltaPayOptions } from "../lib/registrations/options"
import { clientConfigOf } from "../lib/registrations/shared-client"
import type { CheckLine, CheckStatus, Finding } from "./check-line"
import { reachLines } from "./reach"
import { setUpLines } from "./set-up"
import { missingTerminalLine, namedTerminals, terminalLines } from "./terminals"

export type { CheckLine, CheckStatus } from "./check-line"

export interface CheckRun {
  /** true: a test set-up (sandbox, test gateway, allowInsecureUrls, no callbackSecret, unreachable URLs) is a problem. */
  production?: boolean
  /** false: the configuration only, no call to AltaPay. */
  network?: boolean
  /** true: send test posts to the store's notification and return URLs (reach.ts). */
  reach?: boolean
  /** Makes the client for a registration (tests shorten its retries). */
  clientFor?: (options: AltaPayClientOptions) => AltaPayClient
}

const PLUGIN = "medusa-payment-altapay"

/** Every check on a loaded medusa-config, in order: the plugin, then each registration. */
export async function checkStore(configModule: ConfigModule, run: CheckRun = {}): Promise<CheckLine[]> {
  const lines: CheckLine[] = [pluginLine(configModule)]
  const entries = findAltaPayProviderEntries(withModuleRecord(configModule))
  if (entries.length === 0) {
    lines.push({
      status: "problem",
      subject: "config",
      text: `no AltaPay provider in the Payment module: add { resolve: "${PLUGIN}/providers/altapay", id: "altapay", options: {...} } to its providers (docs/merchant.md)`,
    })
    return lines
  }
  for (const entry of entries) lines.push(...(await checkRegistration(entry, run)))
  return lines
}

function pluginLine(configModule: ConfigModule): CheckLine {
  const plugins = (configModule.plugins ?? []) as unknown[]
  const found = plugins.some((plugin) => {
    const resolve = typeof plugin === "string" ? plugin : (plugin as { resolve?: unknown } | null)?.resolve
    return typeof resolve === "string" && (resolve === PLUGIN || resolve.endsWith(`/${PLUGIN}`))
  })
  return found
    ? { status: "ok", subject: "plugin", text: `${PLUGIN} is in plugins (return endpoint, jobs, payouts, admin routes)` }
    : {
        status: "problem",
        subject: "plugin",
        text: `${PLUGIN} is not in plugins: add plugins: [{ resolve: "${PLUGIN}", options: {} }]; without it the customer's return, the follow-up jobs and payouts are missing`,
      }
}

/** medusa-config as defineConfig leaves it (modules by key), or as written (an array of modules). */
function withModuleRecord(configModule: ConfigModule): ConfigModule {
  const modules = configModule.modules as unknown
  if (!Array.isArray(modules)) return configModule
  const record: Record<string, unknown> = {}
  for (const module of modules as Array<{ key?: string; resolve?: string }>) {
    const key = module.key ?? (module.resolve === "@medusajs/medusa/payment" || module.resolve === "@medusajs/payment" ? "payment" : module.resolve)
    if (key) record[key] = module
  }
  return { ...configModule, modules: record } as ConfigModule
}

type Entry = ReturnType<typeof findAltaPayProviderEntries>[number]

async function checkRegistration(entry: Entry, run: CheckRun): Promise<CheckLine[]> {
  const subject = altapayProviderId(entry)
  const line = (status: CheckStatus, text: string): CheckLine => ({ status, subject, text })
  // As the provider parses them where Medusa loads it: providerId is the entry's id, a different one a
  // problem. What the provider refuses only in production is one of setUpLines' problems here, so
  // the calls to AltaPay still run and every problem shows at once.
  const parsed = parseAltaPayOptions(entry.options, { id: entry.id }, { production: false })
  if ("problems" in parsed) return parsed.problems.map((problem) => line("problem", `option ${problem}`))
  const { findings } = await checkOptions(parsed.options, run)
  return findings.map(([status, text]) => line(status, text))
}

/** What the check finds of one registration's parsed options; `terminals`: the API user's, when AltaPay listed them. */
export interface OptionsCheck {
  findings: Finding[]
  terminals?: AltaPayTerminal[]
  /** AltaPay refused the username or password at both APIs (401). */
  credentialsRefused?: boolean
}

/** The checks of one registration whose options parsed (the admin's AltaPay page runs these too). */
export async function checkOptions(options: AltaPayOptions, run: CheckRun = {}): Promise<OptionsCheck> {
  const production = run.production === true
  const findings: Finding[] = [["ok", "options are valid"], ...setUpLines(options, production)]
  let found: Awaited<ReturnType<typeof altapayLines>> | undefined
  if (run.network === false) {
    const missing = missingTerminalLine(options, undefined, production)
    if (missing) findings.push(missing)
  } else {
    const client = (run.clientFor ?? createAltaPayClient)({ ...clientConfigOf(options), maxRetries: 0 })
    try {
      found = await altapayLines(client, options, production)
      findings.push(...found.lines)
    } finally {
      await client.close()
    }
  }
  if (run.reach) findings.push(...(await reachLines(options)))
  return { findings, terminals: found?.terminals, credentialsRefused: found?.credentialsRefused }
}

/** The calls to AltaPay: a MERCHANT token, the terminals, the funding files; what one refusal decides is skipped. */
async function altapayLines(
  client: AltaPayClient,
  options: AltaPayOptions,
  production: boolean
): Promise<{ lines: Finding[]; terminals?: AltaPayTerminal[]; credentialsRefused: boolean }> {
  const lines: Finding[] = []
  const token = await attempt(() => client.tokens.merchantToken())
  const listed = await attempt(() => client.gateway.getTerminals())
  const credentialsRefused = refusesCredentials(token) && refusesCredentials(listed)
  if (credentialsRefused) {
    lines.push([
      "problem",
      `AltaPay refuses the username or password (401) at the Checkout API (${options.checkoutUrl}) and the merchant API (${options.gatewayUrl}): check ALTAPAY_USERNAME and ALTAPAY_PASSWORD, and that both URLs are the environment (test or production) the API user belongs to`,
    ])
  } else {
    lines.push(
      "error" in token
        ? ["problem", `Checkout API at ${options.checkoutUrl}: ${whatWentWrong(token.error, "the Checkout API")}`]
        : ["ok", `Checkout API at ${options.checkoutUrl} accepts the API user ${options.username}`],
      "error" in listed
        ? ["problem", `merchant API at ${options.gatewayUrl}: ${whatWentWrong(listed.error, "the merchant API")}`]
        : ["ok", `merchant API at ${options.gatewayUrl} accepts the API user and lists ${listed.value.length} terminal(s)`]
    )
  }
  const known = "value" in listed ? listed.value : undefined
  const skip = (what: string): Finding => ["skipped", `${what}: not checked: credentials refused`]
  if (known) lines.push(...terminalLines(options, known))
  else if (refusesCredentials(listed) && namedTerminals(options).length > 0) lines.push(skip("terminals"))
  const missing = missingTerminalLine(options, known, production)
  if (missing) lines.push(missing)
  const result = { terminals: known, credentialsRefused }
  if (!options.payouts.enabled) return { lines, ...result }
  if (refusesCredentials(listed)) return { lines: [...lines, skip("funding files (payouts)")], ...result }
  const fundings = await attempt(() => client.fundings.fundingList({ page: 0 }))
  lines.push(
    "error" in fundings
      ? ["problem", `funding files (payouts): ${whatWentWrong(fundings.error, "funding files")}; or set payouts: { enabled: false }`]
      : ["ok", "funding files can be listed (payouts)"]
  )
  return { lines, ...result }
}

type Attempt<T> = { value: T } | { error: unknown }

async function attempt<T>(call: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { value: await call() }
  } catch (error) {
    return { error }
  }
}

const refusesCredentials = (result: Attempt<unknown>): boolean => "error" in result && result.error instanceof AltaPayAuthError && result.error.status === 401

function whatWentWrong(error: unknown, api: string): string {
  if (error instanceof AltaPayAuthError) {
    return error.status === 403
      ? `AltaPay denies the API user access (403): ask AltaPay to give it access to ${api}`
      : `AltaPay refuses the username or password (401) here only: check that checkoutUrl and gatewayUrl are the same environment (test or production), and ask AltaPay whether the API user may use ${api}`
  }
  if (error instanceof AltaPayTimeoutError || error instanceof AltaPayNetworkError) {
    return `AltaPay could not be reached (${error.message}): check the URL, and that this server reaches it (firewall, proxy, DNS)`
  }
  if (error instanceof AltaPayGatewayError) return `AltaPay refused the call (${error.message}): ask AltaPay whether the API user may use ${api}`
  return error instanceof Error ? error.message : String(error)
}
