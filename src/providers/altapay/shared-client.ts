/**
 * One AltaPay client per API user and environment in a process, shared by the provider and the
 * plugin's routes: one MERCHANT token cache and one connection pool, not one per caller.
 */
import { createHash } from "node:crypto"
import { createAltaPayClient, type AltaPayClient, type HttpLogger } from "../../altapay"
import type { AltaPayOptions } from "./options"

const clients = new Map<string, AltaPayClient>()

export function sharedAltaPayClient(options: AltaPayOptions, logger?: HttpLogger): AltaPayClient {
  const key = [
    options.checkoutUrl,
    options.gatewayUrl,
    options.username,
    // Never keep the password itself as a key.
    createHash("sha256").update(options.password).digest("hex"),
    options.connectTimeoutMs,
    options.headersTimeoutMs,
    options.bodyTimeoutMs,
    options.maxRetries,
  ].join("|")
  let client = clients.get(key)
  if (!client) {
    client = createAltaPayClient({
      checkoutUrl: options.checkoutUrl,
      gatewayUrl: options.gatewayUrl,
      username: options.username,
      password: options.password,
      connectTimeoutMs: options.connectTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs,
      maxRetries: options.maxRetries,
      logger,
    })
    clients.set(key, client)
  }
  return client
}
