/**
 * A sandbox per spec file plus provider options pointing at it. Options are one object whose URL
 * fields are filled in when the sandbox has started: Medusa runners read module options when a
 * test boots the module, after the spec's own beforeAll.
 */
import path from "node:path"
import { startSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox"
import type { AltaPayOptionsInput } from "../../src/providers/altapay"
import { ALTAPAY_PROVIDER_ID } from "../../tools/store/seed"

export const PROVIDER_RESOLVE = path.resolve(__dirname, "../../src/providers/altapay")
export const PROVIDER_ID = ALTAPAY_PROVIDER_ID
export const API_USER = "medusa-shop@altapay.test"
export const API_PASSWORD = "integration-password-123"
export const CALLBACK_SECRET = "integration-callback-secret-0123456789"
/** The landing page every test store's successUrl and failureUrl name (no storefront listens there). */
export const LANDING_URL = "http://shop.test/api/altapay/landing?outcome={outcome}&cart_id={cart_id}&order_id={order_id}&message={message}"

export interface SandboxedOptions {
  options: AltaPayOptionsInput
  /** Extra options of the sandbox (e.g. its invoice terminal), read when it starts. */
  sandboxOptions: Partial<SandboxOptions>
  sandbox(): Sandbox
  start(): Promise<Sandbox>
  stop(): Promise<void>
}

export function sandboxedAltaPay(overrides: Partial<AltaPayOptionsInput> = {}): SandboxedOptions {
  let sandbox: Sandbox | undefined
  const options: AltaPayOptionsInput = {
    checkoutUrl: "http://127.0.0.1:1",
    gatewayUrl: "http://127.0.0.1:1",
    username: API_USER,
    password: API_PASSWORD,
    terminal: "AltaPay Sandbox Test Terminal",
    callbackSecret: CALLBACK_SECRET,
    backendUrl: "http://127.0.0.1:9000",
    // Storefront landing pages: the plugin's return endpoint sends the customer there (303).
    successUrl: LANDING_URL,
    failureUrl: LANDING_URL,
    language: "da",
    country: "DK",
    headersTimeoutMs: 2_000,
    // The sandbox speaks http only.
    allowInsecureUrls: true,
    ...overrides,
  }
  const sandboxOptions: Partial<SandboxOptions> = {}
  return {
    options,
    sandboxOptions,
    sandbox: () => {
      if (!sandbox) throw new Error("sandbox not started: call start() in beforeAll")
      return sandbox
    },
    async start() {
      sandbox = await startSandbox({ ...sandboxOptions, port: 0, username: API_USER, password: API_PASSWORD, callbackSecret: CALLBACK_SECRET })
      options.checkoutUrl = sandbox.checkoutUrl
      options.gatewayUrl = sandbox.gatewayUrl
      return sandbox
    },
    async stop() {
      await sandbox?.close()
    },
  }
}

/**
 * Captures a reservation at AltaPay itself, over its merchant API, as autoCapture or the merchant
 * in AltaPay's back office would: captured before Medusa records anything.
 */
export async function captureAtAltaPay(sandbox: Sandbox, transactionId: string): Promise<void> {
  const answer = await fetch(`${sandbox.url}/merchant/API/captureReservation`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${API_USER}:${API_PASSWORD}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ transaction_id: transactionId }).toString(),
  })
  const text = await answer.text()
  if (!text.includes("<Result>Success</Result>")) throw new Error(`the sandbox did not capture ${transactionId}: ${text.slice(0, 300)}`)
}
