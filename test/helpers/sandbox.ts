/** Starts a sandbox and a client pointed at it; every test file gets its own pair. */
import { createAltaPayClient, type AltaPayClient, type AltaPayClientOptions } from "../../src/altapay"
import { startSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox"

export const SANDBOX_USER = "api-user@shop.test"
export const SANDBOX_PASSWORD = "s3cret-Password!"
export const CALLBACK_SECRET = "callback-secret-for-tests"

export interface SandboxPair {
  sandbox: Sandbox
  client: AltaPayClient
  logLines: string[]
  clientWith(options?: Partial<AltaPayClientOptions>): AltaPayClient
  close(): Promise<void>
}

export async function startSandboxAndClient(options: Partial<AltaPayClientOptions> = {}, sandboxOptions: Partial<SandboxOptions> = {}): Promise<SandboxPair> {
  const sandbox = await startSandbox({ port: 0, username: SANDBOX_USER, password: SANDBOX_PASSWORD, callbackSecret: CALLBACK_SECRET, ...sandboxOptions })
  const logLines: string[] = []
  const extraClients: AltaPayClient[] = []
  const clientWith = (overrides: Partial<AltaPayClientOptions> = {}) => {
    const client = createAltaPayClient({
      checkoutUrl: sandbox.checkoutUrl,
      gatewayUrl: sandbox.gatewayUrl,
      username: SANDBOX_USER,
      password: SANDBOX_PASSWORD,
      retryBaseDelayMs: 5,
      retryMaxDelayMs: 20,
      logger: { debug: (m) => logLines.push(m), warn: (m) => logLines.push(m) },
      ...options,
      ...overrides,
    })
    extraClients.push(client)
    return client
  }
  const client = clientWith()
  return {
    sandbox,
    client,
    logLines,
    clientWith,
    close: async () => {
      await Promise.all(extraClients.map((c) => c.close()))
      await sandbox.close()
    },
  }
}

/** A session paid with the test card, authorized: returns its ids. */
export async function authorizedPayment(
  pair: SandboxPair,
  amountMinor: number,
  currency = "DKK",
  extra: { autoCapture?: boolean; orderId?: string } = {}
): Promise<{ sessionId: string; transactionId: string; paymentId: string; orderId: string }> {
  const orderId = extra.orderId ?? `order-${Math.random().toString(16).slice(2)}`
  const session = await pair.client.checkout.createSession({
    orderId,
    amountMinor,
    currency,
    configuration: extra.autoCapture ? { autoCapture: true } : undefined,
  })
  const paid = await pair.sandbox.simulatePayment(session.sessionId, { outcome: "authorize", callback: false })
  if (!paid.transactionId) throw new Error(`sandbox did not authorize: ${paid.status}`)
  return { sessionId: session.sessionId, transactionId: paid.transactionId, paymentId: paid.paymentId, orderId }
}
