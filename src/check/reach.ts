/**
 * `altapay-check --reach`: whether AltaPay's posts reach the store, tried from outside as AltaPay
 * sends them. A test post (lib/callbacks/test-post.ts), signed with the registration's callback
 * secret as AltaPay signs, goes to the store's public notification URL and, when the registration
 * gives AltaPay the plugin's return endpoint, to its return URL; each answer says whether it arrived
 * and, if not, what answered instead (reach-verdict.ts). The store answers a test post without
 * touching any payment. Redirects are not followed: AltaPay posts to the URL as it was given.
 */
import { networkInterfaces } from "node:os"
import { Agent, request } from "undici"
import { newTestPost } from "../lib/callbacks/test-post"
import { WEBHOOK_SECRET_AT_ALTAPAY } from "../lib/registrations/option-hints"
import { notificationUrl, type AltaPayOptions } from "../lib/registrations/options"
import type { Finding } from "./check-line"
import { verdictOf, type ReachOutcome, type ReachTarget } from "./reach-verdict"

/** How long a connection and an answer may take before the target counts as unreachable. */
const TIMEOUT_MS = 10_000

/** The URLs AltaPay posts to for this registration. */
export function reachTargets(options: Pick<AltaPayOptions, "backendUrl" | "providerId" | "successUrl" | "failureUrl">): ReachTarget[] {
  const base = options.backendUrl.replace(/\/+$/, "")
  return [
    { kind: "notification", url: notificationUrl(options as AltaPayOptions) },
    ...(options.successUrl || options.failureUrl ? [{ kind: "return" as const, url: `${base}/altapay/return/${encodeURIComponent(options.providerId)}/success` }] : []),
  ]
}

export async function reachLines(options: AltaPayOptions): Promise<Finding[]> {
  const secret = options.callbackSecret
  if (!secret) {
    return [
      [
        "problem",
        `reach not tested: a test post is signed as AltaPay signs, with callbackSecret, and this registration has none; create one in ${WEBHOOK_SECRET_AT_ALTAPAY} and set it in ALTAPAY_CALLBACK_SECRET here and on the store`,
      ],
    ]
  }
  const agent = new Agent({ connect: { timeout: TIMEOUT_MS }, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS })
  const context = { callbackSources: options.callbackSources, backendHost: new URL(options.backendUrl).hostname, ownAddresses: ownAddresses() }
  try {
    const lines: Finding[] = []
    for (const target of reachTargets(options)) {
      const post = newTestPost(secret)
      lines.push(verdictOf(target, post.shopOrderId, await send(agent, target.url, post), context))
    }
    return lines
  } finally {
    await agent.close()
  }
}

async function send(agent: Agent, url: string, post: ReturnType<typeof newTestPost>): Promise<ReachOutcome> {
  try {
    const answer = await request(url, {
      method: "POST",
      dispatcher: agent,
      headers: { "content-type": "application/x-www-form-urlencoded", "altapay-signature": post.signatureHeader, "user-agent": "altapay-check" },
      body: post.body,
    })
    const body = await answer.body.text()
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value
    return { status: answer.statusCode, headers, body: body.slice(0, 2_000) }
  } catch (error) {
    return { error }
  }
}

/** This machine's own addresses: a store that saw the test post from one of them sees its callers. */
function ownAddresses(): Set<string> {
  return new Set(
    Object.values(networkInterfaces())
      .flat()
      .flatMap((entry) => (entry ? [entry.address] : []))
  )
}
