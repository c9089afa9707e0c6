/** `createAltaPayClient`: validated options in, the APIs (tokens, checkout, gateway, fundings) out. */
import { z } from "zod"
import { AgreementsApi } from "./agreements/api"
import { CheckoutApi } from "./checkout"
import { AltaPayValidationError } from "./errors"
import { FundingsApi } from "./fundings"
import { GatewayApi } from "./gateway"
import { DEFAULT_RETRY, DEFAULT_TIMEOUTS, HttpTransport, merchantEndpoint, type HttpLogger } from "./http"
import type { AltaPayObserver } from "./observer"
import { TokenProvider, type TokenStore } from "./tokens"

const optionsSchema = z.object({
  checkoutUrl: z.url({ protocol: /^https?$/ }),
  gatewayUrl: z.url({ protocol: /^https?$/ }),
  username: z.string().min(1),
  password: z.string().min(1),
  connectTimeoutMs: z.number().int().positive().optional(),
  headersTimeoutMs: z.number().int().positive().optional(),
  bodyTimeoutMs: z.number().int().positive().optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
  retryBaseDelayMs: z.number().int().min(0).optional(),
  retryMaxDelayMs: z.number().int().min(0).optional(),
  tokenRefreshMarginMs: z.number().int().min(0).optional(),
})

export interface AltaPayClientOptions extends z.input<typeof optionsSchema> {
  /** Where the MERCHANT token is kept; share one across processes to authenticate once. */
  tokenStore?: TokenStore
  /** A lock shared across processes for issuing the MERCHANT token (see TokenProviderOptions). */
  tokenIssueLock?: <T>(key: string, job: () => Promise<T>) => Promise<T>
  logger?: HttpLogger
  /** Told of every call to AltaPay after it ends (observer.ts): traces, metrics, a request log. */
  observer?: AltaPayObserver
  /** Clock for token expiry (ms). */
  now?: () => number
}

export interface AltaPayClient {
  tokens: TokenProvider
  checkout: CheckoutApi
  gateway: GatewayApi
  /** Agreements (saved cards): set-up through the hosted page, chargeSubscription, reserveSubscriptionCharge. */
  agreements: AgreementsApi
  /** Payouts: fundingList and fundingDownload (merchant API, Basic auth). */
  fundings: FundingsApi
  /** Closes the keep-alive connections. */
  close(): Promise<void>
}

export function createAltaPayClient(options: AltaPayClientOptions): AltaPayClient {
  const parsed = optionsSchema.safeParse(options)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message }))
    throw new AltaPayValidationError(`Invalid AltaPay client options: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}.`, issues)
  }
  const o = parsed.data
  const http = new HttpTransport(
    {
      connectTimeoutMs: o.connectTimeoutMs ?? DEFAULT_TIMEOUTS.connectTimeoutMs,
      headersTimeoutMs: o.headersTimeoutMs ?? DEFAULT_TIMEOUTS.headersTimeoutMs,
      bodyTimeoutMs: o.bodyTimeoutMs ?? DEFAULT_TIMEOUTS.bodyTimeoutMs,
    },
    {
      maxRetries: o.maxRetries ?? DEFAULT_RETRY.maxRetries,
      baseDelayMs: o.retryBaseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
      maxDelayMs: o.retryMaxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    },
    options.logger
  )
  http.observer = options.observer
  const tokens = new TokenProvider(http, {
    checkoutUrl: o.checkoutUrl,
    username: o.username,
    password: o.password,
    refreshMarginMs: o.tokenRefreshMarginMs,
    now: options.now,
    store: options.tokenStore,
    issueLock: options.tokenIssueLock,
  })
  const gateway = new GatewayApi(http, { gatewayUrl: o.gatewayUrl, username: o.username, password: o.password })
  return {
    tokens,
    checkout: new CheckoutApi(http, tokens, o.checkoutUrl),
    gateway,
    agreements: new AgreementsApi(gateway),
    fundings: new FundingsApi(http, merchantEndpoint(o)),
    close: () => http.close(),
  }
}
