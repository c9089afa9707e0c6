/**
 * The hosted-page redirect flow for storefronts that only know Medusa's standard calls: the server
 * creates the AltaPay payment for the configured terminal with a CUSTOMER token it issues for this
 * one session, uses once and forgets; the storefront just sends the customer to the payment `url`.
 */
import { AltaPayValidationError, type AltaPayClient, type PaymentMethod } from "../../altapay"

export async function createRedirectPayment(client: AltaPayClient, sessionId: string, terminal: string | null): Promise<{ paymentId: string; url: string }> {
  const methods = await client.checkout.listPaymentMethods(sessionId)
  const method = chooseMethod(methods, terminal)
  const { token } = await client.tokens.customerToken(sessionId)
  const payment = await client.checkout.createPayment({ sessionId, paymentMethodId: method.id }, { customerToken: token })
  if (!payment.url) {
    throw new AltaPayValidationError("AltaPay created the payment but returned no page to send the customer to.", [{ field: "url", message: "missing" }])
  }
  return { paymentId: payment.paymentId, url: payment.url }
}

/** The configured terminal's method; without a terminal, the first card method (else the first). */
export function chooseMethod(methods: PaymentMethod[], terminal: string | null): PaymentMethod {
  const byTerminal = terminal ? methods.find((m) => m.metadata?.terminalName === terminal || m.name === terminal) : undefined
  const chosen = byTerminal ?? (terminal ? undefined : (methods.find((m) => m.type === "CARD") ?? methods[0]))
  if (!chosen) {
    const offered = methods.map((m) => m.metadata?.terminalName ?? m.name ?? m.id).join(", ") || "none"
    throw new AltaPayValidationError(
      terminal
        ? `AltaPay offers no payment method for terminal "${terminal}" on this session (offered: ${offered}). Check the provider's terminal option.`
        : "AltaPay offers no payment method for this session. Check the API user's terminals.",
      [{ field: "terminal", message: `not offered (offered: ${offered})` }]
    )
  }
  return chosen
}
