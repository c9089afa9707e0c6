/** The payment data's canonical JSON, which its seal is computed over. */
/**
 * JSON with object keys sorted and undefined members left out: the same text after a Postgres
 * jsonb round trip. It runs on every seal and every check of one. The payment data's schemas
 * list their fields in this order (`canonicalObject`), so zod's output, which is what is sealed
 * and checked, is in it already: then V8's own JSON.stringify writes the same text, at a third of
 * the cost of building it here.
 */
export function canonicalJson(value: unknown): string {
  return inCanonicalOrder(value) ? JSON.stringify(value) : sortedJson(value)
}

/** Whether JSON.stringify writes `value` canonically: plain objects with their keys in order, and only JSON's own values. */
function inCanonicalOrder(value: unknown): boolean {
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
    for (let i = 0; i < value.length; i++) if (value[i] !== undefined && !inCanonicalOrder(value[i])) return false
    return true
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false // a Date's toJSON, a class instance
  const record = value as Record<string, unknown>
  let previous: string | undefined
  for (const key of Object.keys(record)) {
    if (previous !== undefined && !(previous < key)) return false
    previous = key
    const member = record[key]
    if (member !== undefined && !inCanonicalOrder(member)) return false
  }
  return true
}

/** The canonical text built by hand, for values not in canonical order already. */
function sortedJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) {
    let out = "["
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      out += (i === 0 ? "" : ",") + (item === undefined ? "null" : sortedJson(item))
    }
    return out + "]"
  }
  const record = value as Record<string, unknown>
  // Default sort: UTF-16 code units, the same order as comparing the keys with < and >.
  const keys = Object.keys(record).sort()
  let out = "{"
  for (const key of keys) {
    const member = record[key]
    if (member === undefined) continue
    out += (out.length === 1 ? "" : ",") + JSON.stringify(key) + ":" + sortedJson(member)
  }
  return out + "}"
}
