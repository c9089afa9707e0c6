/**
 * JSON with object keys in a fixed order and undefined members left out: the same text after a
 * Postgres jsonb round trip. It runs on every seal and every check of one. Version 1 of the seal
 * orders keys by code unit (`CODE_UNIT_ORDER`); version 2 as jsonb stores them
 * (`STORED_ORDER`: shorter keys first), so that Medusa's copy of a payment's data, read back from
 * its database, is in order already. The payment data's schemas list their fields in version 2's
 * order (`canonicalObject`), so zod's output is in it too. An object in order is written by V8's
 * own JSON.stringify, at a third of the cost of building the text here.
 */
export function canonicalJson(value: unknown, order: KeyOrder = CODE_UNIT_ORDER): string {
  return inCanonicalOrder(value, order) ? JSON.stringify(value) : sortedJson(value, order)
}

/** Whether key `a` comes before key `b`. */
export type KeyOrder = (a: string, b: string) => boolean

/** Version 1: by UTF-16 code units. */
export const CODE_UNIT_ORDER: KeyOrder = (a, b) => a < b

/** Version 2: shorter keys first, then by code units; Postgres's jsonb order for the ASCII keys the provider writes. */
export const STORED_ORDER: KeyOrder = (a, b) => a.length < b.length || (a.length === b.length && a < b)

/** `keys`, sorted by `order`. */
export function inOrder(keys: string[], order: KeyOrder): string[] {
  return keys.sort((a, b) => (order(a, b) ? -1 : order(b, a) ? 1 : 0))
}

/** Whether JSON.stringify writes `value` canonically: plain objects with their keys in order, and only JSON's own values. */
function inCanonicalOrder(value: unknown, order: KeyOrder): boolean {
  if (value === null) return true
  switch (typeof value) {
    case "string":
    case "boolean":
      return true
    case "number":
      return Number.isFinite(value)
    case "object":
      break
    default:
      return false
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (value[i] !== undefined && !inCanonicalOrder(value[i], order)) return false
    return true
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false // a Date's toJSON, a class instance
  const record = value as Record<string, unknown>
  let previous: string | undefined
  for (const key of Object.keys(record)) {
    if (previous !== undefined && !order(previous, key)) return false
    previous = key
    const member = record[key]
    if (member !== undefined && !inCanonicalOrder(member, order)) return false
  }
  return true
}

/** The canonical text built by hand, for values not in canonical order already. */
function sortedJson(value: unknown, order: KeyOrder): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) {
    let out = "["
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      out += (i === 0 ? "" : ",") + (item === undefined ? "null" : sortedJson(item, order))
    }
    return out + "]"
  }
  const record = value as Record<string, unknown>
  const keys = inOrder(Object.keys(record), order)
  let out = "{"
  for (const key of keys) {
    const member = record[key]
    if (member === undefined) continue
    out += (out.length === 1 ? "" : ",") + JSON.stringify(key) + ":" + sortedJson(member, order)
  }
  return out + "}"
}
