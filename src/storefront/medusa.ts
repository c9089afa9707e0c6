/**
 * Calls to Medusa's store routes from the browser, through a @medusajs/js-sdk instance (which sends
 * the publishable key and the customer's token or cookie) or plain fetch. Browser-safe.
 */
import { AltaPayCheckoutError, AltaPaySessionRequestError, AltaPayUnavailableError } from "./errors"

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

/**
 * The part of a `@medusajs/js-sdk` instance the helpers use: `sdk.client.fetch` sends the
 * publishable key and the signed-in customer's token or session cookie for you.
 */
export interface MedusaSdkLike {
  client: {
    fetch<T>(input: string, init?: { method?: string; body?: Record<string, unknown>; signal?: AbortSignal | null }): Promise<T>
  }
}

/** How the helpers reach Medusa: `sdk`, or `medusaUrl` with `publishableKey`. */
export interface MedusaConnection {
  /** A @medusajs/js-sdk instance (preferred): it knows the backend URL, key and customer auth. */
  sdk?: MedusaSdkLike
  /** Without `sdk`: the Medusa backend URL, e.g. https://api.shop.example */
  medusaUrl?: string
  /** Without `sdk`: the store's publishable API key. */
  publishableKey?: string
  /** Without `sdk`: extra headers, e.g. { authorization: `Bearer ${customerToken}` } for a signed-in customer. */
  headers?: Record<string, string>
  /** Without `sdk`: "include" to send Medusa's session cookie cross-origin. */
  credentials?: RequestCredentials
  /** fetch to use (default: globalThis.fetch). */
  fetch?: FetchLike
  signal?: AbortSignal
}

/** One store route call; Medusa's refusals become AltaPaySessionRequestError (status, type, Medusa's message). */
export async function callMedusa<T>(
  connection: MedusaConnection,
  method: "GET" | "POST" | "DELETE",
  path: string,
  body: Record<string, unknown> | undefined,
  caller: string
): Promise<T> {
  return connection.sdk ? viaSdk<T>(connection.sdk, method, path, body, connection.signal) : viaFetch<T>(method, path, body, connection, caller)
}

async function viaSdk<T>(sdk: MedusaSdkLike, method: string, path: string, body: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<T> {
  try {
    return await sdk.client.fetch<T>(path, { method, ...(body ? { body } : {}), signal })
  } catch (error) {
    // js-sdk's FetchError carries status and Medusa's message, not the error type.
    const e = error as { status?: unknown; message?: unknown }
    const status = typeof e?.status === "number" ? e.status : undefined
    const message = typeof e?.message === "string" && e.message ? e.message : "Medusa could not answer the AltaPay request."
    if (status === undefined) throw new AltaPayCheckoutError(`Could not reach Medusa: ${message}`, { cause: error })
    throw medusaError(status, undefined, message, error)
  }
}

async function viaFetch<T>(method: string, path: string, requestBody: Record<string, unknown> | undefined, options: MedusaConnection, caller: string): Promise<T> {
  if (!options.medusaUrl) throw new AltaPaySessionRequestError(`${caller}: pass \`sdk\` (a @medusajs/js-sdk instance) or \`medusaUrl\` and \`publishableKey\`.`)
  if (!options.publishableKey) throw new AltaPaySessionRequestError(`${caller}: \`publishableKey\` is required with \`medusaUrl\` (Medusa's /store routes need it).`)
  const doFetch = options.fetch ?? defaultFetch()
  let res: Response
  try {
    res = await doFetch(`${options.medusaUrl.replace(/\/+$/, "")}${path}`, {
      method,
      headers: {
        accept: "application/json",
        ...(requestBody ? { "content-type": "application/json" } : {}),
        "x-publishable-api-key": options.publishableKey,
        ...options.headers,
      },
      ...(requestBody ? { body: JSON.stringify(requestBody) } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    })
  } catch (error) {
    throw new AltaPayCheckoutError(`Could not reach Medusa at ${options.medusaUrl}: ${errorText(error)}`, { cause: error })
  }
  const body = await readJson(res)
  if (!res.ok) {
    const b = body as { type?: unknown; code?: unknown; message?: unknown } | undefined
    const code = typeof b?.code === "string" ? b.code : undefined
    throw medusaError(res.status, typeof b?.type === "string" ? b.type : undefined, typeof b?.message === "string" ? b.message : `HTTP ${res.status}`, undefined, code)
  }
  return body as T
}

function medusaError(status: number | undefined, type: string | undefined, message: string, cause?: unknown, code?: string): AltaPayCheckoutError {
  const details = { status, type, cause, ...(code ? { code } : {}) }
  if (status === 502 || type === "altapay_unreachable") return new AltaPayUnavailableError(message, { ...details, type: type ?? "altapay_unreachable" })
  return new AltaPaySessionRequestError(message, details)
}

export async function readJson(res: Response): Promise<unknown> {
  const text = await res.text()
  if (!text) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

export function defaultFetch(): FetchLike {
  if (typeof globalThis.fetch !== "function") throw new AltaPayCheckoutError("No fetch available: pass `fetch` in the options.")
  return globalThis.fetch.bind(globalThis) as FetchLike
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
