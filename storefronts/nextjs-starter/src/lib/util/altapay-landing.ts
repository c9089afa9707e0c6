import "server-only"

import type { AltaPayLanguage } from "./altapay-i18n"

const escape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")

/**
 * A small page that says what happened and moves on to `next` by itself (medusa-payment-altapay
 * storefront kit). It is reached by AltaPay's redirect, a cross-site navigation that carries no
 * SameSite=Strict cookie; the navigation this page starts is same-site, so the cart cookie goes
 * along to `next`. Served straight to the browser (not through AltaPay), so a script may help.
 *
 * `notice`: AltaPay's message for the customer (its `error_message`, which AltaPay requires shown
 * when `cardholder_message_must_be_shown` is true and always for Klarna), plain text, escaped here.
 * With a notice the page stays until the customer follows the link, so it can be read.
 * `language`: the page's own (its texts are in it); AltaPay's notice is in its payment page's.
 */
export function landingPage(
  message: string,
  next: string,
  linkText: string,
  notice: string | null,
  language: AltaPayLanguage
): Response {
  const href = escape(next)
  const moveOn = notice ? "" : `<meta http-equiv="refresh" content="1;url=${href}">`
  const html =
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
    `${moveOn}<title>${escape(linkText)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem">` +
    `<p id="altapay-landing" role="status">${escape(message)}</p>` +
    (notice ? `<p id="altapay-landing-notice" role="alert">${escape(notice)}</p>` : "") +
    `<p><a href="${href}">${escape(linkText)}</a></p>` +
    (notice ? "" : `<script>location.replace(${JSON.stringify(next)})</script>`) +
    `</body></html>`
  return new Response(html, {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  })
}

/** The id Medusa gave a cart or an order, or null for anything else. */
export const medusaId = (value: string | null, prefix: "cart" | "order") =>
  value && new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`).test(value) ? value : null

export const countryPath = (countryCode?: string | null) =>
  countryCode && /^[a-z]{2}$/i.test(countryCode) ? `/${countryCode.toLowerCase()}` : ""

/** AltaPay's message from the landing URL's `message`: one line of at most 500 characters, or null. */
export const altapayNotice = (value: string | null) => {
  // split(""), not a spread: the starter's tsconfig targets ES5, where a string spread is TS2802.
  const text = (value ?? "")
    .split("")
    .map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? " " : c))
    .join("")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 500)
  return text ? text : null
}
