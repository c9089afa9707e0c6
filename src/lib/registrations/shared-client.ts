/**
 * One AltaPay client per registration and environment in a process, shared by the provider and
 * the plugin's routes: one MERCHANT token cache and one connection pool, not one per caller. A
 * provider with Medusa's cache/locking modules gets a client wired to those (see ../scale-out/shared-state.ts).
 * Per registration, not per API user: its observer names the registration in spans and metrics
 * and writes its request log only when that registration turned it on (../observability/).
 */
import { createHash } from "node:crypto"
import { createAltaPayClient, type AltaPayClient, type HttpLogger } from "../../altapay"
import { altapayObserver, registrationName, requestLogOf } from "../observability/observer"
import type { AltaPayOptions } from "./options"
import { processStore, type ScaleOut } from "../scale-out/shared-state"

const clients = new Map<string, AltaPayClient>()

export function sharedAltaPayClient(options: AltaPayOptions, logger?: HttpLogger, scaleOut: Pick<ScaleOut, "key" | "tokenStore" | "lock" | "store"> = { key: "" }): AltaPayClient {
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
    options.providerId,
    JSON.stringify(options.requestLog),
    scaleOut.key,
  ].join("|")
  let client = clients.get(key)
  if (!client) {
    client = createAltaPayClient({
      ...clientConfigOf(options),
      logger,
      tokenStore: scaleOut.tokenStore,
      tokenIssueLock: scaleOut.lock,
      observer: altapayObserver(
        registrationName(options),
        requestLogOf(options, scaleOut.store ?? processStore(), (error) =>
          logger?.warn?.(`AltaPay request log: an entry was not written (${error instanceof Error ? error.message : String(error)}).`)
        )
      ),
    })
    clients.set(key, client)
  }
  return client
}

/** What a registration's options say about reaching AltaPay: URLs, credentials, timeouts, retries. */
export function clientConfigOf(options: AltaPayOptions) {
  const { checkoutUrl, gatewayUrl, username, password, connectTimeoutMs, headersTimeoutMs, bodyTimeoutMs, maxRetries } = options
  return { checkoutUrl, gatewayUrl, username, password, connectTimeoutMs, headersTimeoutMs, bodyTimeoutMs, maxRetries }
}
