/**
 * The success and failure URLs the provider gives AltaPay with every session (`callbacks.success`,
 * `callbacks.failure`). AltaPay's gateway POSTs the signed callback form to them itself, server to
 * server, and relays a 30X answer to the customer's browser (AltaPay's Merchant API callback
 * settings for callback_ok / callback_fail; AltaPay/salesforce-headless-commerce-pwa
 * lib/api/routes/index.js). So they name the plugin's return endpoint on this Medusa server,
 * `<backendUrl>/altapay/return/<providerId>/success|failure` (src/api/altapay/return), which
 * completes the cart and then sends the customer on to the storefront's landing page (the
 * successUrl / failureUrl options).
 *
 * Without successUrl / failureUrl no return endpoint is named: AltaPay then shows its own result page.
 */
import type { ReturnKind } from "../../lib/customer-return/handle"
import type { AltaPayOptions } from "../../lib/registrations/options"

export interface ReturnUrlsFor {
  success?: string
  failure?: string
}

/** The plugin's return endpoint of one registration. */
export function returnEndpoint(options: Pick<AltaPayOptions, "backendUrl" | "providerId">, kind: ReturnKind): string {
  return `${options.backendUrl.replace(/\/+$/, "")}/altapay/return/${encodeURIComponent(options.providerId)}/${kind}`
}

/**
 * Where AltaPay asks, just before the money moves, whether the cart still stands (option
 * `verifyOrder`): the plugin's verify endpoint, `<backendUrl>/altapay/verify-order/<providerId>`.
 */
export function verifyOrderUrlFor(options: Pick<AltaPayOptions, "backendUrl" | "providerId" | "verifyOrder">): string | undefined {
  return options.verifyOrder ? `${options.backendUrl.replace(/\/+$/, "")}/altapay/verify-order/${encodeURIComponent(options.providerId)}` : undefined
}

/** The success/failure callback URLs for a session: only where a landing page is configured. */
export function returnUrlsFor(options: Pick<AltaPayOptions, "backendUrl" | "providerId" | "successUrl" | "failureUrl">): ReturnUrlsFor {
  return {
    ...(options.successUrl ? { success: returnEndpoint(options, "success") } : {}),
    ...(options.failureUrl ? { failure: returnEndpoint(options, "failure") } : {}),
  }
}
