/**
 * The AltaPay registration (`pp_altapay_<id>`) that Medusa's webhook route hands a notification to.
 * Medusa serves it at /hooks/payment/:provider and its Payment module adds `pp_` only to a name
 * without it (@medusajs/payment getWebhookActionAndData), so /hooks/payment/altapay_card and
 * /hooks/payment/pp_altapay_card both reach pp_altapay_card: every check on that route, and every
 * subscriber of payment.webhook_received, must read both spellings alike.
 */
export function webhookRegistration(provider: unknown): string | undefined {
  if (typeof provider !== "string") return undefined
  const name = provider.startsWith("pp_") ? provider.slice("pp_".length) : provider
  return name.startsWith("altapay_") ? `pp_${name}` : undefined
}
