/** Text limits of the reference, measured in UTF-16 units, and cutting text to fit them. */

/** Field length limits from the reference, in characters (measured by `textLength`, in UTF-16 units). */
export const ORDER_LINE_LIMITS = {
  description: 255,
  itemId: 100,
  unitCode: 50,
  imageUrl: 255,
  productUrl: 255,
} as const

/**
 * Length in UTF-16 code units (`text.length`), the measure every limit here is checked in. AltaPay
 * gives its limits "in characters" without saying how it counts them; a UTF-16 count is never below
 * the code point count, so a text within the limit by this measure is within it either way (an emoji
 * counts 2, "ø" 1).
 */
export function textLength(text: string): number {
  return text.length
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" })

// AltaPay answers in XML, and XML 1.0 allows no C0 control character but tab, LF and CR, not even
// escaped (C1 ones are discouraged); a text of ours echoed in an answer we cannot parse would leave a
// capture uncertain. So each run of C0/C1 control characters (\p{Cc}, tab and line breaks included,
// which a one-line text does not need) becomes one space before trimming and cutting.
const CONTROL_RUNS = /\p{Cc}+/gu

/**
 * Trims `text`, turns control characters into spaces (above) and shortens it to at most `maxChars`
 * UTF-16 units (`textLength`), ending in "…" (one unit) when cut, if the ellipsis fits. Cuts between
 * grapheme clusters, so an emoji, a joined emoji sequence or a letter with its accent is never split;
 * falls back to a code point boundary (never half a surrogate pair) only when a single cluster is
 * longer than the room left.
 */
export function truncateText(text: string, maxChars: number): string {
  if (!Number.isInteger(maxChars) || maxChars < 0) throw new RangeError("maxChars must be a non-negative integer")
  const clean = text.replace(CONTROL_RUNS, " ").trim()
  if (textLength(clean) <= maxChars) return clean
  const budget = maxChars >= 2 ? maxChars - 1 : maxChars
  let cut = budget // in UTF-16 units, so clean[cut] exists
  // `containing` asks ICU for the one cluster around the cut instead of walking the whole text.
  const cluster = graphemes.segment(clean).containing(cut)
  if (cluster && cluster.index > 0) cut = cluster.index
  else if (splitsSurrogatePair(clean, cut)) cut-- // the first cluster alone is longer than the budget
  const kept = clean.slice(0, cut).trimEnd()
  return maxChars >= 2 ? `${kept}…` : kept
}

/** Whether cutting `text` before unit `at` would leave half of a surrogate pair on each side. */
function splitsSurrogatePair(text: string, at: number): boolean {
  return at > 0 && /^[\uD800-\uDBFF][\uDC00-\uDFFF]$/.test(text.slice(at - 1, at + 1))
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
  if (!url || textLength(url) > max || !isAbsoluteHttpUrl(url)) return undefined
  return url
}
