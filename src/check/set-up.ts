/**
 * What a test set-up has and a live store must not, from the options alone: a local sandbox,
 * AltaPay's test gateway, allowInsecureUrls, no callbackSecret, and URLs AltaPay or the customer
 * cannot reach or should not be sent to (production-urls.ts). Problems with `production`, notes
 * (or nothing, for the URLs of a local set-up) otherwise.
 */
import { WEBHOOK_SECRET_AT_ALTAPAY } from "../lib/registrations/option-hints"
import { localSandbox, type AltaPayOptions } from "../lib/registrations/options"
import { productionUrlFindings, usesTestGateway } from "../lib/registrations/production-urls"
import type { CheckStatus, Finding } from "./check-line"

export function setUpLines(options: AltaPayOptions, production: boolean): Finding[] {
  const testOnly: CheckStatus = production ? "problem" : "note"
  const lines: Finding[] = []
  if (localSandbox(options)) {
    lines.push([testOnly, `checkoutUrl and gatewayUrl are a local sandbox (${options.checkoutUrl}), not AltaPay: use https://<shop>.altapaysecure.com to go live`])
  } else if (usesTestGateway(options)) {
    lines.push([testOnly, "checkoutUrl or gatewayUrl is AltaPay's test gateway: use https://<shop>.altapaysecure.com to go live"])
  }
  if (options.allowInsecureUrls) lines.push([testOnly, "allowInsecureUrls is true (ALTAPAY_ALLOW_INSECURE_URLS): remove it before going live"])
  if (!options.callbackSecret) {
    lines.push([
      testOnly,
      `no callbackSecret: every callback is confirmed by a look-up at AltaPay, and the customer's return lands without cart or order id; create a secret in ${WEBHOOK_SECRET_AT_ALTAPAY}, and set the same value in ALTAPAY_CALLBACK_SECRET (callbackSecret)`,
    ])
  }
  if (production) {
    const { refuse, report } = productionUrlFindings(options)
    lines.push(...[...refuse, ...report].map((finding): Finding => ["problem", finding]))
  }
  return lines
}
