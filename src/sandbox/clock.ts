/** Time formats the two AltaPay APIs use; every timestamp comes from the sandbox's injectable clock. */

const pad = (n: number, width = 2): string => String(n).padStart(width, "0")

/** Gateway record dates: "YYYY-MM-DD HH:MM:SS" with no offset (we keep them in UTC). */
export function gatewayDate(ms: number): string {
  const d = new Date(ms)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
}

/** ISO 8601 with an explicit "+00:00" offset, as AltaPay writes Header/Date and reconciliation dates. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00")
}

export const unixSeconds = (ms: number): number => Math.floor(ms / 1000)

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
