/** Text limits of the reference, counted in Unicode code points, and cutting text to fit them. */

/** Field length limits from the reference, in characters (Unicode code points). */
export const ORDER_LINE_LIMITS = {
  description: 255,
  itemId: 100,
  unitCode: 50,
  imageUrl: 255,
  productUrl: 255,
} as const

/** Length in Unicode code points, which is what AltaPay counts as characters. */
export function codePointLength(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" })

/**
 * Trims `text` and shortens it to at most `maxChars` code points, ending in "…" when cut (if the
 * ellipsis fits). Cuts between grapheme clusters, so an emoji or a letter with its accent is never
 * split; falls back to code points only when a single cluster is longer than the limit.
 */
export function truncateText(text: string, maxChars: number): string {
  if (!Number.isInteger(maxChars) || maxChars < 0) throw new RangeError("maxChars must be a non-negative integer")
  const trimmed = text.trim()
  if (trimmed.length <= maxChars) return trimmed // UTF-16 length is never below the code point count
  const points = Array.from(trimmed)
  if (points.length <= maxChars) return trimmed
  const budget = maxChars >= 2 ? maxChars - 1 : maxChars
  let cut = 0 // in UTF-16 units
  for (let i = 0; i < budget; i++) cut += points[i].length
  // `containing` asks ICU for the one cluster around the cut instead of walking the whole text.
  const cluster = graphemes.segment(trimmed).containing(cut)
  if (cluster && cluster.index > 0 && cluster.index < cut) cut = cluster.index
  const kept = trimmed.slice(0, cut).trimEnd()
  return maxChars >= 2 ? `${kept}…` : kept
}

/** `id` itself when free, else `id-2`, `id-3`, ... kept within the itemId limit. Records the result. */
export function claimItemId(id: string, taken: Set<string>): string {
  const base = truncateText(id, ORDER_LINE_LIMITS.itemId) || "line"
  let candidate = base
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `-${n}`
    candidate = `${truncateText(base, ORDER_LINE_LIMITS.itemId - suffix.length)}${suffix}`
  }
  taken.add(candidate)
  return candidate
}

export function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === "https:" || url.protocol === "http:"
  } catch {
    return false
  }
}

/** A URL AltaPay accepts, or undefined: too long or relative URLs are dropped, never cut. */
export function usableUrl(value: string | null | undefined, max: number): string | undefined {
  const url = value?.trim()
  if (!url || codePointLength(url) > max || !isAbsoluteHttpUrl(url)) return undefined
  return url
}
