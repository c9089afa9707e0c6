/**
 * Provider options, validated once at start-up. A bad config fails with one message that lists
 * every problem, so a merchant fixes them all in one go.
 */
import { z } from "zod"
import { parseSource } from "../callbacks/source-addresses"
import { altapayLanguageOf } from "../medusa-mapping/language"
import { DEFAULT_FRAUD_OPTIONS, fraudOptionsSchema } from "./fraud-options"
import { DEFAULT_JOB_OPTIONS, jobOptionsSchema } from "./job-options"
import { languageProblem, notSetMessage } from "./option-hints"
import { productionUrlFindings, usesTestGateway } from "./production-urls"

const url = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" })
const positiveMs = z.number().int().positive()

/** The payouts job (src/jobs/altapay-payouts.ts): AltaPay's funding files imported and matched with Medusa's captures and refunds. */
export const payoutsOptionsSchema = z
  .object({
    /** false: this registration's funding files are not imported (another registration of the same API user may still import them). */
    enabled: z.boolean().default(true),
    /** How often the import runs, in minutes (the shortest of all registrations). */
    intervalMinutes: z
      .number()
      .int()
      .min(5)
      .max(24 * 60)
      .default(60),
    /** A capture or refund no funding file pays out after this many days is listed as unfunded. */
    unfundedAfterDays: z.number().int().min(1).max(365).default(14),
    /**
     * The day reconciliation starts (YYYY-MM-DD, UTC): fundings dated before it are not imported, and
     * captures and refunds recorded before it are never listed as unfunded (they are still copied, so
     * later lines match them). Unset: everything AltaPay lists and Medusa recorded.
     */
    reconcileFrom: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD, e.g. "2026-11-01"')
      .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day), "must be a real calendar date (YYYY-MM-DD)")
      .optional(),
  })
  .strict()

export type PayoutsOptions = z.output<typeof payoutsOptionsSchema>

/**
 * Saved cards (issue 32): Medusa's account-holder and payment-method hooks on this registration.
 * Off, the hooks create no account holder and list no cards, as before. On, a signed-in customer
 * gets one account holder per registration (our id: AltaPay has no customer object) and their
 * saved cards (AltaPay agreements, the plugin's altapay-saved-cards module) are listed for it.
 */
export const savedCardsOptionsSchema = z
  .object({
    /** true: account holders and saved cards on this registration. */
    enabled: z.boolean().default(false),
    /**
     * Where a customer who added a card from their account (POST /store/altapay/saved-cards) lands
     * after AltaPay's page: an http(s) URL, `{outcome}` replaced with `saved` or `failed`. Unset:
     * AltaPay shows the plugin's one-line answer.
     */
    returnUrl: z
      .string()
      .url()
      .refine((url) => /^https?:\/\//.test(url), "must be an http(s) URL")
      .optional(),
  })
  .strict()

export type SavedCardsOptions = z.output<typeof savedCardsOptionsSchema>
export const DEFAULT_PAYOUTS_OPTIONS: PayoutsOptions = payoutsOptionsSchema.parse({})

/**
 * AltaPay look-ups of anonymous customer returns (unsigned posts, GETs), per registration: see
 * ../customer-return/look-up-budget.ts. AltaPay's signed posts are never capped.
 */
export const returnLookUpsSchema = z
  .object({
    /** Look-ups for one payment session per minute, across servers. */
    perSessionPerMinute: z.number().int().min(1).max(60).default(5),
    /** Look-ups per second for the whole registration, across servers. */
    perSecond: z.number().int().min(1).max(1_000).default(20),
    /** Look-ups in flight at once, per server. */
    concurrent: z.number().int().min(1).max(64).default(8),
  })
  .strict()

/** What successUrl / failureUrl (the storefront's landing pages) may contain, filled per return (lib/customer-return/landing.ts). */
export const RETURN_URL_PLACEHOLDERS = ["session_id", "cart_id", "order_id", "outcome", "message"] as const
const returnUrl = url.refine((value) => [...value.matchAll(/\{([^{}]*)\}/g)].every(([, name]) => (RETURN_URL_PLACEHOLDERS as readonly string[]).includes(name)), {
  error: `may only contain the placeholders ${RETURN_URL_PLACEHOLDERS.map((p) => `{${p}}`).join(", ")}`,
})

/** How to make a paymentDataSecret, in every message about one. */
const GENERATE_SECRET = "generate one with `openssl rand -hex 32` and set that value on every server of the store"
/** 32 random hex characters have at least 8 different ones but for about 4 in 100 million. */
const MIN_DISTINCT_CHARACTERS = 8
/** Loopback host names: only this machine listens there (the URL parser keeps IPv6 in brackets). */
const LOOPBACK_HOST = /^(localhost|[^.]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/**
 * True when the registration talks to a local AltaPay sandbox, not to AltaPay: each of
 * checkoutUrl and gatewayUrl is http:// (AltaPay serves https only; http needs allowInsecureUrls,
 * which is for a local sandbox) or names a loopback host. AltaPay's own test gateway
 * (testgateway.altapaysecure.com) is AltaPay: its store is on the internet like a live one.
 */
export function localSandbox(options: Pick<AltaPayOptions, "checkoutUrl" | "gatewayUrl">): boolean {
  return [options.checkoutUrl, options.gatewayUrl].every((value) => {
    try {
      const url = new URL(value)
      return url.protocol === "http:" || LOOPBACK_HOST.test(url.hostname)
    } catch {
      return false
    }
  })
}

export const altapayOptionsSchema = z
  .object({
    /** Base URL of the Checkout API, e.g. https://testgateway.altapaysecure.com */
    checkoutUrl: url,
    /** Base URL of the gateway merchant API (often the same host). */
    gatewayUrl: url,
    username: z.string().min(1, "is required (the AltaPay API user)"),
    password: z.string().min(1, "is required (the AltaPay API user's password)"),
    /** Terminal used for every currency without its own entry in `terminals`. */
    terminal: z.string().min(1).optional(),
    /** Terminal per ISO 4217 currency, e.g. { DKK: "Shop DKK Terminal" }. */
    terminals: z.record(z.string().regex(/^[A-Za-z]{3}$/, "keys must be ISO 4217 codes"), z.string().min(1)).optional(),
    /**
     * Further terminals whose payments this registration accepts, besides its terminal for the
     * currency (e.g. a wallet terminal the storefront offers with the card). A payment made on any
     * other terminal of the API user is not authorized.
     */
    acceptedTerminals: z.array(z.string().min(1)).optional(),
    /** Capture at authorization (AltaPay paymentAndCapture). */
    autoCapture: z.boolean().default(false),
    /**
     * Capture what was sent: `fulfillment` captures an order's items when Medusa creates a
     * fulfillment for them, `shipment` when Medusa marks it shipped; `manual` (default) leaves
     * captures to the admin's Capture button and "Capture items".
     */
    captureOn: z.enum(["manual", "fulfillment", "shipment"]).default("manual"),
    /**
     * Terminals whose captures and refunds must carry the reservation's own order lines (Klarna,
     * invoice methods). A payment AltaPay reports with PaymentNature Invoice counts too.
     */
    invoiceTerminals: z.array(z.string().min(1)).optional(),
    /** Secret AltaPay signs callbacks with (AltaPay-Signature). Without it callbacks are confirmed by a look-up. */
    callbackSecret: z.string().min(16, "must be at least 16 characters").optional(),
    /**
     * Seconds a signed callback's `t` may be from its arrival for its body to be trusted as is.
     * An older (correctly signed) one is not refused: it is confirmed by a look-up, like an unsigned one.
     */
    callbackToleranceSeconds: z.number().int().positive().default(300),
    /**
     * Where the notification callback and the return posts may come from: "altapay" for AltaPay's
     * published addresses, or a list of addresses and CIDR ranges. Others are refused with 403
     * (lib/callbacks/source-addresses.ts). Unset: any address (a local sandbox).
     */
    callbackSources: z
      .union([
        z.literal("altapay"),
        z
          .array(z.string().refine((entry) => parseSource(entry) !== undefined, { error: "must be an IPv4 or IPv6 address or CIDR range, e.g. 185.206.120.0/24" }))
          .min(1, 'must name at least one address (or be "altapay")'),
      ])
      .optional(),
    /** Public URL of this Medusa server; the notification callback is <backendUrl>/hooks/payment/altapay_<providerId>. */
    backendUrl: url,
    /**
     * The `id` this provider has in medusa-config: it names the callback and return URLs. Taken
     * from the registration where Medusa loads the provider (registration-id.ts); a value that
     * differs from the registration's id is refused. Default "altapay" -> pp_altapay_altapay.
     */
    providerId: z
      .string()
      .regex(/^[a-z0-9_-]+$/i)
      .default("altapay"),
    /**
     * The storefront's landing pages the plugin's return endpoint sends the customer to (303) after
     * AltaPay posted the return: success once the order exists, failure otherwise. `{session_id}`,
     * `{cart_id}`, `{order_id}` and `{outcome}` are replaced. AltaPay gets the plugin's endpoints.
     */
    successUrl: returnUrl.optional(),
    failureUrl: returnUrl.optional(),
    /** How many AltaPay look-ups anonymous returns may cost (issue 29). */
    returnLookUps: returnLookUpsSchema.default(returnLookUpsSchema.parse({})),
    /** redirect: Medusa's standard storefront calls; storefront: the CUSTOMER-token route and helper. */
    flow: z.enum(["redirect", "storefront"]).default("redirect"),
    /** Product page URL for order lines, e.g. "https://shop.example/products/{handle}". */
    productUrlTemplate: z
      .string()
      .regex(/^https?:\/\/.*\{handle\}/, "must be an absolute URL containing {handle}")
      .optional(),
    /** ISO 639-1 language of the payment page, e.g. "da": one of AltaPay's (language.ts); nb and nn become no, ee et. */
    language: z
      .string()
      .regex(/^[a-z]{2}$/, "must be an ISO 639-1 code such as da or en")
      // AltaPay's own PHP client refuses any other value before sending (api-php PaymentRequest.php).
      .refine((value) => !/^[a-z]{2}$/.test(value) || altapayLanguageOf(value) !== undefined, { error: (issue) => languageProblem(issue.input) })
      .transform((value) => altapayLanguageOf(value) ?? value)
      .default("en"),
    /** ISO 3166-1 alpha-2 country, e.g. "DK". */
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code such as DK")
      .optional(),
    connectTimeoutMs: positiveMs.default(5_000),
    headersTimeoutMs: positiveMs.default(30_000),
    bodyTimeoutMs: positiveMs.default(30_000),
    /** Retries for safe calls (reads, look-ups, authenticate). */
    maxRetries: z.number().int().min(0).max(10).default(2),
    /** Let refunds exceed the captured amount (only some acquirers allow it). */
    allowOverRefund: z.boolean().default(false),
    /**
     * Key material for the seal on payment data (see ../payment-data/data.ts and server-keys.ts).
     * Required unless the registration talks to a local sandbox (localSandbox below): shoppers see
     * sealed data, so a key derived from the API password would let them guess it offline.
     * Without it (sandbox only) the key is derived from username + password with scrypt.
     */
    paymentDataSecret: z
      .string()
      .min(32, `must be at least 32 characters; ${GENERATE_SECRET}`)
      .refine((value) => new Set(value).size >= MIN_DISTINCT_CHARACTERS, {
        error: `is not random (fewer than ${MIN_DISTINCT_CHARACTERS} different characters); ${GENERATE_SECRET}`,
      })
      .optional(),
    /**
     * Earlier values of paymentDataSecret whose seals still verify (nothing new is sealed with
     * them): list the old secret here when rotating, and remove it once the sessions and payments
     * of the old key have been written again (a few days).
     */
    previousPaymentDataSecrets: z.array(z.string().min(32, "must be at least 32 characters")).max(5).optional(),
    /**
     * Accept http:// checkoutUrl / gatewayUrl. Basic credentials and tokens then travel in clear
     * text: only for a local sandbox.
     */
    allowInsecureUrls: z.boolean().default(false),
    /** The scheduled follow-up of lost callbacks, Open results and abandoned sessions (job-options.ts). */
    jobs: jobOptionsSchema.default(DEFAULT_JOB_OPTIONS),
    /** The payouts import: funding files, their matching and the unfunded cut-off. */
    payouts: payoutsOptionsSchema.default(DEFAULT_PAYOUTS_OPTIONS),
    /** Saved cards: Medusa's account holders and the customer's cards on AltaPay agreements (default off). */
    savedCards: savedCardsOptionsSchema.default({ enabled: false }),
    /** AltaPay's fraud recommendation and AVS: release on Deny, hold capture on Challenge (fraud-options.ts). */
    fraud: fraudOptionsSchema.default(DEFAULT_FRAUD_OPTIONS),
  })
  .strict()
  .superRefine((options, ctx) => {
    if (options.previousPaymentDataSecrets?.length && !options.paymentDataSecret) {
      ctx.addIssue({ code: "custom", path: ["previousPaymentDataSecrets"], message: "needs paymentDataSecret (the current secret) as well" })
    }
    if (!options.paymentDataSecret && !localSandbox(options)) {
      ctx.addIssue({
        code: "custom",
        path: ["paymentDataSecret"],
        message: `is required outside a local sandbox: every shopper sees sealed payment data, and without a secret its key comes from the API password, which anyone could then guess offline; ${GENERATE_SECRET} (ALTAPAY_PAYMENT_DATA_SECRET in medusa-config.example.ts)`,
      })
    }
    for (const [field, value] of [
      ["password", options.password],
      ["callbackSecret", options.callbackSecret],
    ] as const) {
      if (options.paymentDataSecret && options.paymentDataSecret === value) {
        ctx.addIssue({
          code: "custom",
          path: ["paymentDataSecret"],
          message: `must be a secret of its own, not the ${field}; ${GENERATE_SECRET}`,
        })
      }
    }
    if (options.allowInsecureUrls) return
    for (const field of ["checkoutUrl", "gatewayUrl"] as const) {
      if (/^http:/i.test(options[field])) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: "must use https:// (the API credentials would travel in clear text); set allowInsecureUrls: true only for a local sandbox",
        })
      }
    }
  })

export type AltaPayOptions = z.output<typeof altapayOptionsSchema>
export type AltaPayOptionsInput = z.input<typeof altapayOptionsSchema>

const SECRET_FIELDS = new Set(["password", "callbackSecret", "username", "paymentDataSecret", "previousPaymentDataSecrets"])

/** The medusa-config entry an options object belongs to: its `id` (undefined when the entry has none). */
export interface RegistrationOf {
  id: string | undefined
}

/**
 * Problems of `providerId` against the registration's `id`, which Medusa makes the provider's name
 * (pp_altapay_<id>) and its webhook route (/hooks/payment/altapay_<id>): a providerId that differs
 * sends AltaPay's callbacks and customer returns to a provider the store does not have (404).
 */
export function providerIdProblems(raw: unknown, registration: RegistrationOf): string[] {
  const explicit = (raw as { providerId?: unknown } | null | undefined)?.providerId
  if (registration.id === undefined) {
    return [
      `id: the AltaPay registration has no id in medusa-config; give it one, e.g. id: "altapay" (Medusa then names the provider pp_altapay_altapay and the plugin's callback and return URLs use that id)`,
    ]
  }
  if (explicit === undefined || explicit === registration.id) return []
  return [
    `providerId: is ${JSON.stringify(explicit)} but this registration's id in medusa-config is ${JSON.stringify(registration.id)}: AltaPay would post callbacks to /hooks/payment/altapay_${String(explicit)} and customers would return to /altapay/return/${String(explicit)}/…, which no provider of this store answers (404). ` +
      `Remove providerId (it follows the id) or set it to ${JSON.stringify(registration.id)}; keep the id as it is (Medusa stores pp_altapay_${registration.id} on every payment of this registration).`,
  ]
}

/** Where the options are parsed: `production` (default: NODE_ENV is production) refuses what cannot work live. */
export interface ParseContext {
  production?: boolean
}

/**
 * Parses options or returns every problem as `field: message` (never echoing a secret's value).
 * With `registration` (the medusa-config entry the options belong to), `providerId` is that
 * entry's id, and a providerId option that differs from it is a problem (providerIdProblems).
 * In production, against AltaPay's own gateway (not a local sandbox, not its test gateway), URLs
 * AltaPay or the customer cannot reach are problems too (production-urls.ts).
 */
export function parseAltaPayOptions(raw: unknown, registration?: RegistrationOf, context: ParseContext = {}): { options: AltaPayOptions } | { problems: string[] } {
  const idProblems = registration ? providerIdProblems(raw, registration) : []
  const input = registration?.id !== undefined && raw && typeof raw === "object" ? { ...raw, providerId: registration.id } : (raw ?? {})
  const parsed = altapayOptionsSchema.safeParse(input)
  const production = context.production ?? process.env.NODE_ENV === "production"
  const live = parsed.success && production && !localSandbox(parsed.data) && !usesTestGateway(parsed.data)
  const urlProblems = live ? productionUrlFindings(parsed.data).refuse : []
  if (!parsed.success || idProblems.length > 0 || urlProblems.length > 0) {
    return {
      problems: [
        ...idProblems,
        ...urlProblems,
        ...(parsed.success
          ? []
          : parsed.error.issues.map((issue) => {
              const field = issue.path.join(".") || "options"
              if (issue.code === "unrecognized_keys") return `unknown option(s) ${issue.keys.join(", ")}`
              const missing = issue.path.length === 1 && (input as Record<string, unknown>)[field] === undefined ? notSetMessage(field) : undefined
              const message = missing ?? (SECRET_FIELDS.has(String(issue.path[0])) ? issue.message.replace(/received .*/i, "") : issue.message)
              return `${field}: ${message}`
            })),
      ],
    }
  }
  return { options: parsed.data }
}

/** The terminal for a currency: the per-currency entry, else the default. */
export function terminalFor(options: AltaPayOptions, currency: string): string | undefined {
  const upper = currency.toUpperCase()
  const perCurrency = options.terminals ? Object.entries(options.terminals).find(([code]) => code.toUpperCase() === upper)?.[1] : undefined
  return perCurrency ?? options.terminal
}

/**
 * The terminals a payment in `currency` may have been made on: the registration's terminal for
 * the currency and its acceptedTerminals. Undefined when the registration names none (AltaPay then
 * chooses, and there is nothing to compare with).
 */
export function acceptedTerminals(options: Pick<AltaPayOptions, "terminal" | "terminals" | "acceptedTerminals">, currency: string): string[] | undefined {
  const own = terminalFor(options as AltaPayOptions, currency)
  const all = [...(own ? [own] : []), ...(options.acceptedTerminals ?? [])]
  return all.length > 0 ? all : undefined
}

/** With per-currency terminals and no default terminal, only those currencies can be paid. */
export function currenciesWithTerminal(options: AltaPayOptions): string[] | undefined {
  if (options.terminal || !options.terminals) return undefined
  return Object.keys(options.terminals).map((code) => code.toUpperCase())
}

export function notificationUrl(options: AltaPayOptions): string {
  return `${options.backendUrl.replace(/\/$/, "")}/hooks/payment/altapay_${options.providerId}`
}
