/** Request parsing and reply values shared by the sandbox's handlers (node:http only). */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http"
import { timingSafeEqual } from "node:crypto"

/** What a handler answers; the server writes it (and may truncate or drop it for a fault). */
export interface Reply {
  status: number
  headers: Record<string, string>
  body: string
  /** A body written as it is made (chunked), instead of `body`: a generated funding file. */
  stream?: () => Iterable<string>
}

const MAX_BODY_BYTES = 1024 * 1024

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string)
    size += buffer.length
    if (size > MAX_BODY_BYTES) throw new Error("request body too large")
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString("utf8")
}

export const json = (status: number, value: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", ...headers },
  body: JSON.stringify(value),
})

export const jsonError = (status: number, error: string, message: string, extra: Record<string, unknown> = {}): Reply => json(status, { error, message, ...extra })

export const xml = (status: number, body: string): Reply => ({
  status,
  headers: { "content-type": "text/xml; charset=utf-8" },
  body,
})

export const html = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { "content-type": "text/html; charset=utf-8", ...headers },
  body,
})

export const redirect = (status: 302 | 303, location: string): Reply => ({
  status,
  headers: { location, "content-type": "text/plain; charset=utf-8" },
  body: `Redirecting to ${location}`,
})

/**
 * CORS for the checkout API, which AltaPay's browser SDK (and src/storefront) call from the
 * shop's pages with a CUSTOMER token. The gateway API is server-only (Basic auth) and gets none.
 */
const CHECKOUT_API_PREFIX = "/checkout/v1/api/"

export const isCheckoutApi = (path: string): boolean => path.startsWith(CHECKOUT_API_PREFIX)

export const CORS_ORIGIN = { "access-control-allow-origin": "*" } as const

/** The answer to a browser's preflight (`OPTIONS`) for a checkout API call. */
export const preflightReply = (): Reply => ({
  status: 204,
  headers: {
    ...CORS_ORIGIN,
    "access-control-allow-methods": "GET, POST, PUT, OPTIONS",
    "access-control-allow-headers": "authorization, content-type",
    "access-control-max-age": "600",
  },
  body: "",
})

export const escapeHtml = (value: string): string => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")

export type BasicCheck = "valid" | "invalid" | "none"

const safeEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

export function checkBasic(headers: IncomingHttpHeaders, username: string, password: string): BasicCheck {
  const header = headers.authorization
  if (!header) return "none"
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
  if (!match) return "invalid"
  const decoded = Buffer.from(match[1], "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  if (colon < 0) return "invalid"
  const ok = safeEqual(decoded.slice(0, colon), username) && safeEqual(decoded.slice(colon + 1), password)
  return ok ? "valid" : "invalid"
}

export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? "")
  return match?.[1]
}

export interface ParsedForm {
  fields: Record<string, string>
  orderLines?: Record<string, string>[]
  /** captureReservation's `trackingInfo[<index>][<field>]` (and updateOrder's). */
  trackingInfo?: Record<string, string>[]
  /** `shippingTrackingInfo[<index>][<field>]`, as AltaPay's own clients send tracking (api-php, Magento). */
  shippingTrackingInfo?: Record<string, string>[]
  /** Keys starting with `orderLines` or `trackingInfo` that are not `<list>[<index>][<field>]`. */
  badKeys: string[]
}

const LISTS = ["orderLines", "trackingInfo", "shippingTrackingInfo"] as const
const LIST_ENTRY = /^(orderLines|trackingInfo|shippingTrackingInfo)\[(\d+)\]\[([A-Za-z_]+)\]$/

/**
 * Form fields as AltaPay's gateway reads them: `orderLines[0][itemId]=...` becomes
 * `orderLines: [{ itemId }]`, `trackingInfo[0][trackingNumber]=...` likewise; other keys stay flat
 * (last value wins).
 */
export function parseForm(text: string): ParsedForm {
  const fields: Record<string, string> = {}
  const badKeys: string[] = []
  const lists = {
    orderLines: new Map<number, Record<string, string>>(),
    trackingInfo: new Map<number, Record<string, string>>(),
    shippingTrackingInfo: new Map<number, Record<string, string>>(),
  }
  for (const [key, value] of new URLSearchParams(text)) {
    const entry = LIST_ENTRY.exec(key)
    if (entry) {
      const list = lists[entry[1] as (typeof LISTS)[number]]
      const index = Number(entry[2])
      const record = list.get(index) ?? {}
      record[entry[3]] = value
      list.set(index, record)
    } else if (LISTS.some((name) => key.startsWith(name))) {
      badKeys.push(key)
    } else {
      fields[key] = value
    }
  }
  const inOrder = (list: Map<number, Record<string, string>>) => [...list.entries()].sort(([a], [b]) => a - b).map(([, record]) => record)
  return {
    fields,
    ...(lists.orderLines.size > 0 ? { orderLines: inOrder(lists.orderLines) } : {}),
    ...(lists.trackingInfo.size > 0 ? { trackingInfo: inOrder(lists.trackingInfo) } : {}),
    ...(lists.shippingTrackingInfo.size > 0 ? { shippingTrackingInfo: inOrder(lists.shippingTrackingInfo) } : {}),
    badKeys,
  }
}

/** Appends query parameters to a URL, keeping the ones it already has. */
export function withQuery(url: string, params: Record<string, string | undefined>): string {
  const target = new URL(url)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) target.searchParams.set(key, value)
  return target.toString()
}
