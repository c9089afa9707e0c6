/** The provider options a test uses against its own sandbox (which speaks http only). */
import type { Sandbox } from "../../src/sandbox"

export function sandboxProviderOptions(sandbox: Sandbox, credentials: { username: string; password: string }, extra: Record<string, unknown> = {}): never {
  return {
    checkoutUrl: sandbox.checkoutUrl,
    gatewayUrl: sandbox.gatewayUrl,
    ...credentials,
    backendUrl: "http://127.0.0.1:9",
    flow: "storefront",
    allowInsecureUrls: true,
    ...extra,
  } as never
}
