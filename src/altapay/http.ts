/**
 * The only file that touches sockets. One keep-alive undici Pool per origin, explicit timeouts, and
 * retries with backoff and jitter for calls the caller marks safe to repeat. Captures, refunds and
 * session creation are never retried here: a lost answer there needs a look-up, not a resend.
 */
import { Pool, errors as undiciErrors, type Dispatcher } from "undici"
import { AltaPayNetworkError, AltaPayTimeoutError } from "./errors"
import type { AltaPayObserver, CallTally } from "./observer"

export interface HttpTimeouts {
  /** TCP/TLS connect. */
  connectTimeoutMs: number
  /** Time from sending the request to the response headers. */
  headersTimeoutMs: number
  /** Maximum silence while the body streams. */
  bodyTimeoutMs: number
}

export interface RetryPolicy {
  /** Extra attempts after the first, for safe calls only. */
  maxRetries: number
  baseDelayMs: number
  maxDelayMs: number
}

export interface HttpRequest {
  method: "GET" | "POST" | "PUT"
  url: URL
  headers: Record<string, string>
  body?: string
  /** True when sending the request twice cannot do anything twice (reads, authenticate, look-ups). */
  safeToRetry: boolean
  /** Human name for messages and logs: `METHOD path`, never credentials or query strings. */
  operation: string
  /** Where the call's observer (observer.ts) gets its retries and HTTP status. */
  tally?: CallTally
}

export interface HttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** An answer whose body is read as it arrives (funding files): consume or `cancel()` it. */
export interface HttpStreamResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: AsyncIterable<Buffer>
  /** Drops the rest of the body and frees the connection. */
  cancel(): void
}

export interface HttpLogger {
  debug?(message: string): void
  warn?(message: string): void
}

export const DEFAULT_TIMEOUTS: HttpTimeouts = { connectTimeoutMs: 5_000, headersTimeoutMs: 30_000, bodyTimeoutMs: 30_000 }
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 2_000 }

/**
 * `path` (absolute, e.g. `/checkout/v1/api/session`) under `base`, keeping any path prefix of the
 * base (`https://host/prefix` and `https://host/prefix/` give the same URL); its query and hash are dropped.
 */
export function apiUrl(base: string | URL, path: string): URL {
  const url = new URL(base)
  url.pathname = `${url.pathname.replace(/\/+$/, "")}${path}`
  url.search = ""
  url.hash = ""
  return url
}

/** The HTTP Basic `authorization` header value for an API user. */
export const basicAuthorization = (username: string, password: string): string => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`

/** Where the merchant API lives and the API user's header for it (gateway and fundings calls). */
export interface MerchantEndpoint {
  base: URL
  authorization: string
}

export const merchantEndpoint = (options: { gatewayUrl: string; username: string; password: string }): MerchantEndpoint => ({
  base: new URL(options.gatewayUrl),
  authorization: basicAuthorization(options.username, options.password),
})

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504])
const MAX_BODY_BYTES = 10 * 1024 * 1024

export class HttpTransport {
  private readonly pools = new Map<string, Pool>()
  private closed = false
  /** Told of every call by the APIs above (observer.ts); the transport itself only tallies. */
  observer?: AltaPayObserver

  constructor(
    private readonly timeouts: HttpTimeouts = DEFAULT_TIMEOUTS,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly logger?: HttpLogger,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms))
  ) {}

  async request(req: HttpRequest): Promise<HttpResponse> {
    const attempts = req.safeToRetry ? this.retry.maxRetries + 1 : 1
    for (let attempt = 1; ; attempt++) {
      const started = Date.now()
      if (req.tally) delete req.tally.status
      try {
        const res = await this.send(req)
        if (req.tally) req.tally.status = res.status
        this.logger?.debug?.(`altapay ${req.operation} -> ${res.status} in ${Date.now() - started} ms`)
        if (attempt < attempts && RETRYABLE_STATUS.has(res.status)) {
          await this.backoff(req, attempt, `HTTP ${res.status}`, retryAfterMs(res.headers["retry-after"]))
          continue
        }
        return res
      } catch (error) {
        if (!(error instanceof AltaPayNetworkError || error instanceof AltaPayTimeoutError) || attempt >= attempts) {
          throw error
        }
        await this.backoff(req, attempt, error.message)
      }
    }
  }

  /**
   * One GET whose body is handed over unread, for large downloads; never retried here (the
   * caller restarts the read). Transport failures while connecting become typed errors; while
   * the body streams they surface from iterating it.
   */
  async stream(req: Omit<HttpRequest, "body" | "safeToRetry" | "method">): Promise<HttpStreamResponse> {
    const started = Date.now()
    const request: HttpRequest = { ...req, method: "GET", safeToRetry: true }
    try {
      const res = await this.pool(req.url.origin).request({ method: "GET", path: `${req.url.pathname}${req.url.search}`, headers: req.headers })
      this.logger?.debug?.(`altapay ${req.operation} -> ${res.statusCode} in ${Date.now() - started} ms (streaming)`)
      const body = res.body
      // A connection lost or silent mid-body is a typed error too, not undici's own.
      const chunks = async function* (): AsyncGenerator<Buffer> {
        try {
          for await (const chunk of body) yield chunk as Buffer
        } catch (error) {
          throw transportError(error, request)
        }
      }
      return { status: res.statusCode, headers: res.headers, body: chunks(), cancel: () => body.destroy() }
    } catch (error) {
      throw transportError(error, request)
    }
  }

  async close(): Promise<void> {
    this.closed = true
    const pools = [...this.pools.values()]
    this.pools.clear()
    await Promise.all(pools.map((p) => p.close().catch(() => p.destroy())))
  }

  private pool(origin: string): Pool {
    if (this.closed) throw new AltaPayNetworkError("The AltaPay client was closed; create a new one.")
    let pool = this.pools.get(origin)
    if (!pool) {
      pool = new Pool(origin, {
        connections: 64,
        pipelining: 1,
        connect: { timeout: this.timeouts.connectTimeoutMs },
        headersTimeout: this.timeouts.headersTimeoutMs,
        bodyTimeout: this.timeouts.bodyTimeoutMs,
        keepAliveTimeout: 4_000,
      })
      this.pools.set(origin, pool)
    }
    return pool
  }

  private async send(req: HttpRequest): Promise<HttpResponse> {
    try {
      return await answerOf(this.pool(req.url.origin), {
        method: req.method,
        path: `${req.url.pathname}${req.url.search}`,
        headers: req.body === undefined ? req.headers : { ...req.headers, "content-length": String(Buffer.byteLength(req.body)) },
        body: req.body,
      })
    } catch (error) {
      throw transportError(error, req)
    }
  }

  private async backoff(req: HttpRequest, attempt: number, reason: string, hintMs?: number): Promise<void> {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1))
    const delay = hintMs !== undefined ? Math.min(hintMs, this.retry.maxDelayMs) : Math.floor(Math.random() * ceiling)
    this.logger?.warn?.(`altapay ${req.operation} failed (${reason}); retry ${attempt} in ${delay} ms`)
    if (req.tally) req.tally.retries += 1
    await this.sleep(delay)
  }
}

const bodyTooLarge = (): Error => new Error(`response body larger than ${MAX_BODY_BYTES} bytes`)

/**
 * One request and its whole answer, through undici's dispatch with a handler that keeps the
 * body's chunks: Pool.request wraps every answer in a Readable stream first, about a seventh of a
 * call's CPU in the transport with 64 calls in flight (bench/results.md). The Pool's timeouts apply
 * alike; an answer over MAX_BODY_BYTES, declared or streamed, is cut off with an error.
 */
function answerOf(pool: Pool, options: Dispatcher.DispatchOptions): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    let status = 0
    let headers: HttpResponse["headers"] = {}
    const chunks: Buffer[] = []
    let size = 0
    pool.dispatch(options, {
      onRequestStart: () => undefined, // undici requires it
      onResponseStart: (controller, statusCode, responseHeaders) => {
        if (statusCode < 200) return // 1xx: the answer is still to come
        status = statusCode
        headers = responseHeaders
        if (Number(responseHeaders["content-length"]) > MAX_BODY_BYTES) controller.abort(bodyTooLarge())
      },
      onResponseData: (controller, chunk) => {
        size += chunk.length
        if (size > MAX_BODY_BYTES) return controller.abort(bodyTooLarge())
        chunks.push(chunk)
      },
      onResponseEnd: () => resolve({ status, headers, body: (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString("utf8") }),
      onResponseError: (_controller, error) => reject(error),
    })
  })
}

/** The whole body as text, at most MAX_BODY_BYTES (also for an error answer to a stream). */
export async function readBody(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new Error(`response body larger than ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString("utf8")
}

function retryAfterMs(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined
  return Number(text.trim()) * 1000
}

/** Maps undici and socket errors to our typed errors, saying whether AltaPay may have acted. */
function transportError(error: unknown, req: HttpRequest): Error {
  const operation = req.operation
  const code = (error as { code?: string } | null)?.code ?? ""
  if (error instanceof undiciErrors.ConnectTimeoutError || code === "UND_ERR_CONNECT_TIMEOUT") {
    return new AltaPayTimeoutError(`AltaPay did not accept a connection in time (${operation}); nothing was sent.`, {
      operation,
      mayHaveReachedAltaPay: false,
      cause: error,
    })
  }
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT"
  ) {
    return new AltaPayTimeoutError(`AltaPay did not answer in time (${operation}); the request was sent and may have been processed.`, {
      operation,
      mayHaveReachedAltaPay: true,
      cause: error,
    })
  }
  const notSent = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"].includes(code)
  const reason = error instanceof Error ? error.message : String(error)
  return new AltaPayNetworkError(
    notSent
      ? `Could not connect to AltaPay (${operation}): ${reason}; nothing was sent.`
      : `The connection to AltaPay failed during ${operation} (${reason}); the request may have been processed.`,
    { operation, mayHaveReachedAltaPay: !notSent, cause: error }
  )
}
