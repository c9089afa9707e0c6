/**
 * A fake Medusa container (query, payment module, locking, logger, notifications) around the real
 * follow-up code, with the real AltaPay client against the sandbox.
 */
import { memoryStore, paymentLockOn } from "../../../src/lib/scale-out/shared-state"
import { parseAltaPayOptions } from "../../../src/lib/registrations/options"
import { serverKeys } from "../../../src/lib/registrations/server-keys"
import type { AltaPayRegistration } from "../../../src/lib/registrations/registrations"
import type { SandboxPair } from "../../helpers/sandbox"
import { SANDBOX_PASSWORD, SANDBOX_USER } from "../../helpers/sandbox"

export type Graph = (q: { entity: string; fields?: string[]; filters: Record<string, unknown> }) => Promise<{ data: unknown[] }>

export interface FakeMedusa {
  container: never
  notifications: Array<{ idempotency_key: string; data: { title: string; description: string } }>
  logs: Array<{ level: string; message: string }>
  /** Throws once from logger.error (the first line tellMerchant writes): a process that died right after a release. */
  crashOnNextError: boolean
}

export function fakeMedusa(graph: Graph, sessionIds: () => string[] = () => []): FakeMedusa {
  const held = new Map<string, string>()
  const fake: FakeMedusa = { container: undefined as never, notifications: [], logs: [], crashOnNextError: false }
  const log = (level: string) => (message: string) => {
    fake.logs.push({ level, message })
    if (level === "error" && fake.crashOnNextError) {
      fake.crashOnNextError = false
      throw new Error("simulated crash right after the release")
    }
  }
  const services: Record<string, unknown> = {
    query: { graph },
    logger: { info: log("info"), warn: log("warn"), error: log("error"), debug: log("debug") },
    payment: {
      listPaymentSessions: async (_filter: unknown, config: { skip: number; take: number }) =>
        sessionIds()
          .slice(config.skip, config.skip + config.take)
          .map((id) => ({ id })),
    },
    locking: {
      acquire: async (key: string, { ownerId }: { ownerId: string }) => {
        const owner = held.get(key)
        if (owner && owner !== ownerId) throw new Error(`lock ${key} held`)
        held.set(key, ownerId)
      },
      release: async (key: string, { ownerId }: { ownerId: string }) => {
        if (held.get(key) === ownerId) held.delete(key)
        return true
      },
    },
    notification: {
      createNotifications: async (n: { idempotency_key: string; data: { title: string; description: string } }) => {
        if (!fake.notifications.some((x) => x.idempotency_key === n.idempotency_key)) fake.notifications.push(n)
      },
    },
  }
  fake.container = {
    resolve: (name: string) => {
      if (!(name in services)) throw new Error(`not registered: ${name}`)
      return services[name]
    },
    hasRegistration: (name: string) => name in services,
  } as never
  return fake
}

export function registrationFor(pair: SandboxPair): AltaPayRegistration {
  const parsed = parseAltaPayOptions({
    checkoutUrl: pair.sandbox.checkoutUrl,
    gatewayUrl: pair.sandbox.gatewayUrl,
    username: SANDBOX_USER,
    password: SANDBOX_PASSWORD,
    backendUrl: "https://shop.example",
    allowInsecureUrls: true,
    headersTimeoutMs: 2_000,
  })
  if (!("options" in parsed)) throw new Error(parsed.problems.join("; "))
  const store = memoryStore()
  return {
    providerId: "pp_altapay_altapay",
    options: parsed.options,
    client: pair.client,
    scaleOut: { store, paymentLock: paymentLockOn(undefined), key: "" },
    store,
    keys: serverKeys(parsed.options, "payment-data-seal"),
  }
}

/** A payment at the sandbox under `shopOrderId` (the customer paid, or left it open; no callback). */
export async function reserveUnder(pair: SandboxPair, shopOrderId: string, amountMinor: number, outcome: "authorize" | "open" = "authorize"): Promise<string> {
  const session = await pair.client.checkout.createSession({ orderId: shopOrderId, amountMinor, currency: "DKK" })
  const paid = await pair.sandbox.simulatePayment(session.sessionId, { outcome, callback: false })
  if (!paid.transactionId) throw new Error(`sandbox did not ${outcome}: ${paid.status}`)
  return paid.transactionId
}

export const minutes = (n: number): number => n * 60_000
export const days = (n: number): number => n * 24 * 60 * 60_000
