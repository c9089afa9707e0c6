/**
 * Minimal XML writing for the gateway emulator. Plain strings keep the exact element order AltaPay
 * uses, which a generic builder would not guarantee.
 */

// XML 1.0 forbids most control characters even when escaped: drop them rather than emit invalid XML.
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g

export function escapeXml(value: string): string {
  return value.replace(INVALID_XML_CHARS, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;")
}

/** Free text goes in CDATA like AltaPay does; a "]]>" inside the text is split across two sections. */
export function cdata(value: string): string {
  return `<![CDATA[${value.replace(INVALID_XML_CHARS, "").replace(/]]>/g, "]]]]><![CDATA[>")}]]>`
}

/** An element whose content is already XML (children, escaped text or CDATA). */
export function el(name: string, content: string | string[] = "", attrs: Record<string, string> = {}): string {
  const body = Array.isArray(content) ? content.join("") : content
  const attrText = Object.entries(attrs)
    .map(([key, value]) => ` ${key}="${escapeXml(value)}"`)
    .join("")
  return body === "" ? `<${name}${attrText}/>` : `<${name}${attrText}>${body}</${name}>`
}

/** An element holding escaped plain text. */
export const textEl = (name: string, value: string | number | boolean | undefined | null, attrs?: Record<string, string>): string =>
  el(name, value === undefined || value === null ? "" : escapeXml(String(value)), attrs)

/** An element holding free text in CDATA (empty text gives an empty element). */
export const cdataEl = (name: string, value: string | undefined | null): string => el(name, value ? cdata(value) : "")
