/**
 * The test post of `altapay-check --reach`: a callback form signed with the registration's callback
 * secret exactly as AltaPay signs its posts (AltaPay-Signature over the raw body and `t`,
 * src/altapay/callbacks.ts), whose shop_orderid no payment session has (Medusa's are payses-…).
 * The plugin's notification and return routes answer it themselves (src/api/altapay-test-post.ts),
 * after the callbackSources check and before anything that reads or changes a payment: 200 naming
 * the post, or 401 when its signature does not verify with this store's secret. Answers carry the
 * headers below, so the check can tell the plugin's answer from a proxy's, a cache's or a firewall's.
 */
import { randomBytes } from "node:crypto"
import { AltaPayStaleCallbackSignatureError, signCallbackBody, verifyCallbackSignature } from "../../altapay"

/** On the plugin's answer: `received`, `signature-mismatch` or `no-callback-secret`. */
export const TEST_POST_HEADER = "altapay-test-post"
/** On every answer to a test post that reached Medusa (403 from callbackSources too): the address Medusa saw it from. */
export const TEST_POST_FROM_HEADER = "altapay-test-post-from"

const TEST_ORDER_ID = /^altapay-test-post-[0-9a-f]{16}$/

export function isTestPostOrderId(value: unknown): value is string {
  return typeof value === "string" && TEST_ORDER_ID.test(value)
}

export interface TestPost {
  shopOrderId: string
  body: string
  signatureHeader: string
}

/** A new test post (its own shop_orderid, so an answer can be told from a cached one), signed with `secret`. */
export function newTestPost(secret: string, nowMs: number = Date.now()): TestPost {
  const shopOrderId = `altapay-test-post-${randomBytes(8).toString("hex")}`
  const body = new URLSearchParams({ shop_orderid: shopOrderId, status: "test" }).toString()
  return { shopOrderId, body, signatureHeader: signCallbackBody(body, secret, Math.floor(nowMs / 1000)) }
}

export type TestPostSignature = "verified" | "signature-mismatch" | "no-callback-secret"

/** Whether a test post is signed with this store's secret. Its age does not matter: nothing acts on it. */
export function testPostSignature(rawBody: Buffer | undefined, signatureHeader: string | string[] | undefined, secret: string | undefined): TestPostSignature {
  if (!secret) return "no-callback-secret"
  try {
    verifyCallbackSignature({ rawBody: rawBody ?? Buffer.alloc(0), signatureHeader, secret })
    return "verified"
  } catch (error) {
    return error instanceof AltaPayStaleCallbackSignatureError ? "verified" : "signature-mismatch"
  }
}
