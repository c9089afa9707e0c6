/**
 * Checkout API tokens. One MERCHANT token is cached and shared: concurrent cold callers wait on a
 * single authenticate (single flight), and it is refreshed before the `exp` in its JWT. CUSTOMER
 * tokens are issued fresh for each call and never cached (AltaPay: one per customer session).
 */
import { z } from "zod"
import { AltaPayBadResponseError, errorForHttpStatus } from "./errors"
import { apiUrl, basicAuthorization, type HttpTransport } from "./http"
import { observeCall, type CallTally } from "./observer"

export interface IssuedToken {
  token: string
  /** From the JWT's `exp`; falls back to one hour (the reference's lifetime) when absent. */
  expiresAt: Date
}

/** Where the MERCHANT token lives; an in-memory store by default, a shared cache across instances. */
export interface TokenStore {
  get(key: string): Promise<IssuedToken | undefined> | IssuedToken | undefined
  set(key: string, token: IssuedToken): Promise<void> | void
  delete(key: string): Promise<void> | void
}

export interface TokenProviderOptions {
  checkoutUrl: string
  username: string
  password: string
  /** Refresh this long before `exp`. */
  refreshMarginMs?: number
  now?: () => number
  store?: TokenStore
  /**
   * Runs token issuance under a lock shared by every process using the same store, so a cold
   * start of several servers authenticates once. Without it, single flight is per process.
   */
  issueLock?: <T>(key: string, job: () => Promise<T>) => Promise<T>
}

const TOKEN_LIFETIME_MS = 60 * 60 * 1000
const AUTHENTICATE = "POST /checkout/v1/api/authenticate"
const tokenResponse = z.looseObject({ token: z.string().min(10) })

export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, IssuedToken>()
  get(key: string) {
    return this.tokens.get(key)
  }
  set(key: string, token: IssuedToken) {
    this.tokens.set(key, token)
  }
  delete(key: string) {
    this.tokens.delete(key)
  }
}

export class TokenProvider {
  private inflight?: Promise<IssuedToken>
  private readonly now: () => number
  private readonly refreshMarginMs: number
  private readonly store: TokenStore
  private readonly storeKey: string
  private readonly authorization: string
  private readonly url: URL
  private readonly issueLock?: TokenProviderOptions["issueLock"]

  constructor(
    private readonly http: HttpTransport,
    options: TokenProviderOptions
  ) {
    this.now = options.now ?? Date.now
    this.refreshMarginMs = options.refreshMarginMs ?? 60_000
    this.store = options.store ?? new MemoryTokenStore()
    this.url = apiUrl(options.checkoutUrl, "/checkout/v1/api/authenticate")
    this.issueLock = options.issueLock
    // The key names the API user and environment, never the password.
    this.storeKey = `altapay:merchant-token:${this.url.origin}:${options.username}`
    this.authorization = basicAuthorization(options.username, options.password)
  }

  /** The cached MERCHANT token, issuing one (once, however many callers wait) when missing or near expiry. */
  async merchantToken(): Promise<string> {
    const cached = await this.store.get(this.storeKey)
    if (cached && this.isFresh(cached)) return cached.token
    this.inflight ??= (this.issueLock ? this.issueLock(`${this.storeKey}:issue`, () => this.refreshMerchantToken()) : this.refreshMerchantToken()).finally(() => {
      this.inflight = undefined
    })
    return (await this.inflight).token
  }

  /** Issues and stores a MERCHANT token unless another process stored a fresh one meanwhile. */
  private async refreshMerchantToken(): Promise<IssuedToken> {
    const stored = await this.store.get(this.storeKey)
    if (stored && this.isFresh(stored)) return stored
    const issued = await this.issue({ role: "MERCHANT" })
    await this.store.set(this.storeKey, issued)
    return issued
  }

  /** Drops the cached MERCHANT token if it is still `token` (another caller may have refreshed it). */
  async invalidateMerchantToken(token: string): Promise<void> {
    const cached = await this.store.get(this.storeKey)
    if (cached?.token === token) await this.store.delete(this.storeKey)
  }

  /** A new CUSTOMER token, for `sessionId` when given. Never cached. */
  customerToken(sessionId?: string): Promise<IssuedToken> {
    return this.issue(sessionId ? { role: "CUSTOMER", sessionId } : { role: "CUSTOMER" })
  }

  private isFresh(token: IssuedToken): boolean {
    return token.expiresAt.getTime() - this.refreshMarginMs > this.now()
  }

  private issue(body: { role: "MERCHANT" | "CUSTOMER"; sessionId?: string }): Promise<IssuedToken> {
    const start = { operation: AUTHENTICATE, subjects: { sessionId: body.sessionId } }
    return observeCall(
      this.http.observer,
      start,
      (tally) => this.issueOnce(body, tally),
      () => ({ outcome: "success" })
    )
  }

  private async issueOnce(body: { role: "MERCHANT" | "CUSTOMER"; sessionId?: string }, tally: CallTally): Promise<IssuedToken> {
    const operation = AUTHENTICATE
    const res = await this.http.request({
      tally,
      method: "POST",
      url: this.url,
      headers: { authorization: this.authorization, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      safeToRetry: true,
      operation,
    })
    if (res.status < 200 || res.status >= 300) throw errorForHttpStatus(res.status, res.body, operation, false)
    // A good answer's body is a token, and a bad one may still hold one: the error never shows the body.
    const problem = (what: string) => new AltaPayBadResponseError(`AltaPay's authenticate answer carried no token (${operation}): ${what}.`, { status: res.status, operation })
    let json: unknown
    try {
      json = JSON.parse(res.body)
    } catch {
      throw problem("the body is not JSON")
    }
    const parsed = tokenResponse.safeParse(json)
    if (!parsed.success) throw problem(describeTokenAnswer(json))
    const { token } = parsed.data
    return { token, expiresAt: new Date(jwtExpiryMs(token) ?? this.now() + TOKEN_LIFETIME_MS) }
  }
}

/** What is wrong with an authenticate answer, naming field names only, never values. */
function describeTokenAnswer(json: unknown): string {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return "the JSON is not an object"
  const names = Object.keys(json)
    .filter((k) => /^[A-Za-z_][\w-]{0,40}$/.test(k))
    .slice(0, 5)
  return `it has no "token" string of 10 or more characters (fields: ${names.join(", ") || "none"})`
}

/** Reads `exp` from a JWT without verifying it: we only need to know when to ask for a new one. */
export function jwtExpiryMs(token: string): number | undefined {
  const payload = token.split(".")[1]
  if (!payload) return undefined
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: unknown }
    return typeof claims.exp === "number" && Number.isFinite(claims.exp) ? claims.exp * 1000 : undefined
  } catch {
    return undefined
  }
}
