/**
 * `altapay-check`: what a store's go-live can check before the first payment. The store's
 * configuration (the plugin entry, each AltaPay registration's options parsed with the provider's
 * own schema, its providerId) and, per registration, that AltaPay answers: the Checkout API issues
 * a MERCHANT token, the merchant API lists the API user's terminals (getTerminals) and knows every
 * terminal the options name, and the funding files can be listed when payouts are on. Nothing is
 * created at AltaPay: every call is a read or the token every session starts with.
 *
 * Each check is one line: `ok`, `problem` (with what to do) or `note` (worth knowing, not wrong).
 * With `production`, what only a test set-up may have (a local sandbox, AltaPay's test gateway,
 * allowInsecureUrls, no callbackSecret) is a problem too.
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
import { localSandbox, parseAltaPayOptions, type AltaPayOptions } from "../lib/registrations/options"
import { clientConfigOf } from "../lib/registrations/shared-client"

export type CheckStatus = "ok" | "problem" | "note"

export interface CheckLine {
  status: CheckStatus
  /** What was checked: "config", "plugin" or a registration's pp_altapay_<id>. */
  subject: string
  text: string
}

export interface CheckRun {
  /** true: a test set-up (sandbox, test gateway, allowInsecureUrls, no callbackSecret) is a problem. */
  production?: boolean
  /** false: the configuration only, no call to AltaPay. */
  network?: boolean
  /** Makes the client for a registration (tests shorten its retries). */
  clientFor?: (options: AltaPayClientOptions) => AltaPayClient
}

const PLUGIN = "medusa-payment-altapay"
const TEST_GATEWAY = /^testgateway\.altapaysecure\.com$/i

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
  // As the provider parses them where Medusa loads it: providerId is the entry's id, a different one a problem.
  const parsed = parseAltaPayOptions(entry.options, { id: entry.id })
  if ("problems" in parsed) return parsed.problems.map((problem) => line("problem", `option ${problem}`))
  const options = parsed.options
  const lines = [line("ok", "options are valid")]
  lines.push(...setUpLines(options, run.production === true).map(([status, text]) => line(status, text)))
  if (run.network === false) return lines
  const client = (run.clientFor ?? createAltaPayClient)({ ...clientConfigOf(options), maxRetries: 0 })
  try {
    lines.push(...(await altapayLines(client, options)).map(([status, text]) => line(status, text)))
  } finally {
    await client.close()
  }
  return lines
}

/** What a test set-up has and a live store must not: problems with `production`, else notes. */
function setUpLines(options: AltaPayOptions, production: boolean): Array<[CheckStatus, string]> {
  const testOnly: CheckStatus = production ? "problem" : "note"
  const lines: Array<[CheckStatus, string]> = []
  if (localSandbox(options)) {
    lines.push([testOnly, `checkoutUrl and gatewayUrl are a local sandbox (${options.checkoutUrl}), not AltaPay: use https://<shop>.altapaysecure.com to go live`])
  } else if ([options.checkoutUrl, options.gatewayUrl].some((value) => TEST_GATEWAY.test(new URL(value).hostname))) {
    lines.push([testOnly, "checkoutUrl or gatewayUrl is AltaPay's test gateway: use https://<shop>.altapaysecure.com to go live"])
  }
  if (options.allowInsecureUrls) lines.push([testOnly, "allowInsecureUrls is true (ALTAPAY_ALLOW_INSECURE_URLS): remove it before going live"])
  if (!options.callbackSecret) {
    lines.push([testOnly, "no callbackSecret: every callback is confirmed by a look-up at AltaPay; set one here and the same in AltaPay's merchant interface"])
  }
  if (!options.terminal && !options.terminals) lines.push(["note", "no terminal or terminals: AltaPay's first card method is used"])
  return lines
}

/** The calls to AltaPay: a MERCHANT token, the terminals, the funding files. */
async function altapayLines(client: AltaPayClient, options: AltaPayOptions): Promise<Array<[CheckStatus, string]>> {
  const lines: Array<[CheckStatus, string]> = []
  try {
    await client.tokens.merchantToken()
    lines.push(["ok", `Checkout API at ${options.checkoutUrl} accepts the API user ${options.username}`])
  } catch (error) {
    lines.push(["problem", `Checkout API at ${options.checkoutUrl}: ${whatWentWrong(error, "the Checkout API")}`])
  }
  let terminals: AltaPayTerminal[] | undefined
  try {
    terminals = await client.gateway.getTerminals()
    lines.push(["ok", `merchant API at ${options.gatewayUrl} accepts the API user and lists ${terminals.length} terminal(s)`])
  } catch (error) {
    lines.push(["problem", `merchant API at ${options.gatewayUrl}: ${whatWentWrong(error, "the merchant API")}`])
  }
  if (terminals) lines.push(...terminalLines(options, terminals))
  if (options.payouts.enabled) {
    try {
      await client.fundings.fundingList({ page: 0 })
      lines.push(["ok", "funding files can be listed (payouts)"])
    } catch (error) {
      lines.push(["problem", `funding files (payouts): ${whatWentWrong(error, "funding files")}; or set payouts: { enabled: false }`])
    }
  }
  return lines
}

/** Every terminal the options name is one of the API user's, and takes the currency it is named for. */
export function terminalLines(
  options: Pick<AltaPayOptions, "terminal" | "terminals" | "acceptedTerminals" | "invoiceTerminals">,
  known: AltaPayTerminal[]
): Array<[CheckStatus, string]> {
  const named: Array<{ option: string; title: string; currency?: string }> = [
    ...(options.terminal ? [{ option: "terminal", title: options.terminal }] : []),
    ...Object.entries(options.terminals ?? {}).map(([currency, title]) => ({ option: `terminals.${currency}`, title, currency: currency.toUpperCase() })),
    ...(options.acceptedTerminals ?? []).map((title) => ({ option: "acceptedTerminals", title })),
    ...(options.invoiceTerminals ?? []).map((title) => ({ option: "invoiceTerminals", title })),
  ]
  const titles = known.map((t) => `"${t.title}"`).join(", ") || "none"
  return named.map(({ option, title, currency }): [CheckStatus, string] => {
    const terminal = known.find((t) => t.title === title)
    if (!terminal) {
      return [
        "problem",
        `${option} "${title}" is not one of the API user's terminals (AltaPay lists ${titles}): correct the name, or ask AltaPay to give the API user this terminal`,
      ]
    }
    if (currency && terminal.currencies.length > 0 && !terminal.currencies.includes(currency)) {
      return ["problem", `${option} "${title}" does not take ${currency} (AltaPay lists ${terminal.currencies.join(", ")} for it): name a ${currency} terminal`]
    }
    return ["ok", `${option} "${title}" is one of the API user's terminals`]
  })
}

function whatWentWrong(error: unknown, api: string): string {
  if (error instanceof AltaPayAuthError) {
    return error.status === 403
      ? `AltaPay denies the API user access (403): ask AltaPay to give it access to ${api}`
      : `AltaPay refuses the username or password (401): check username and password, and that checkoutUrl and gatewayUrl are the environment (test or production) the API user belongs to`
  }
  if (error instanceof AltaPayTimeoutError || error instanceof AltaPayNetworkError) {
    return `AltaPay could not be reached (${error.message}): check the URL, and that this server reaches it (firewall, proxy, DNS)`
  }
  if (error instanceof AltaPayGatewayError) return `AltaPay refused the call (${error.message}): ask AltaPay whether the API user may use ${api}`
  return error instanceof Error ? error.message : String(error)
}
