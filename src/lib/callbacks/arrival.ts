/**
 * When a callback reached this store. Medusa's webhook route copies the request headers into an
 * event that its subscriber processes seconds (or, with a backlog, minutes) later, so the time of
 * processing is not the time of arrival. The plugin's middleware on the webhook route writes the
 * arrival time into a header, over anything the sender put there, with a MAC only the store's
 * servers can make (bound to the body), and the provider judges the signature's age against it.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import type { ServerKeys } from "../registrations/server-keys"

export const ARRIVAL_HEADER = "x-medusa-altapay-received-at"

export function arrivalStamp(rawBody: Buffer, keys: ServerKeys, nowMs = Date.now()): string {
  return `${nowMs}.${mac(keys.primary, nowMs, rawBody)}`
}

/** The stamped arrival time in ms, or undefined when there is no stamp this store made for this body. */
export function arrivalTime(headers: Record<string, unknown>, rawBody: Buffer, keys: ServerKeys): number | undefined {
  const value = headers[ARRIVAL_HEADER]
  const text = Array.isArray(value) ? value[0] : value
  if (typeof text !== "string") return undefined
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(text)
  if (!match) return undefined
  const at = Number(match[1])
  const given = Buffer.from(match[2], "base64url")
  const valid = keys.accepted.some((key) => {
    const expected = Buffer.from(mac(key, at, rawBody), "base64url")
    return expected.length === given.length && timingSafeEqual(expected, given)
  })
  return valid ? at : undefined
}

function mac(key: Buffer, atMs: number, rawBody: Buffer): string {
  const bodyHash = createHash("sha256").update(rawBody).digest("hex")
  return createHmac("sha256", key).update(`medusa-payment-altapay webhook arrival v1\n${atMs}\n${bodyHash}`).digest("base64url")
}
