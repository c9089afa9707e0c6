import "server-only"

/** Why no order was placed; the payment step explains it (modules/checkout/components/altapay-notice). */
export type AltaPayReturnReason = "failed" | "unconfirmed"

/**
 * Back to the checkout's payment step from a return route (medusa-payment-altapay storefront kit).
 * Not a redirect: this request, and any redirect after it, belong to the cross-site navigation
 * from AltaPay, which carries no SameSite=Strict cookie, and the checkout page needs the cart
 * cookie. A navigation this page starts itself is same-site, so the cookie goes with it.
 */
export function backToPayment(
  reason: AltaPayReturnReason,
  countryCode?: string | null
): Response {
  const country = countryCode && /^[a-z]{2}$/i.test(countryCode) ? `/${countryCode.toLowerCase()}` : ""
  const path = `${country}/checkout?step=payment&altapay=${reason}`
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
    `<noscript><meta http-equiv="refresh" content="0;url=${path.replace(/&/g, "&amp;")}"></noscript>` +
    `<title>Back to checkout</title><script>location.replace(${JSON.stringify(path)})</script></head>` +
    `<body><p><a href="${path.replace(/&/g, "&amp;")}">Back to checkout</a></p></body></html>`
  return new Response(html, {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  })
}
