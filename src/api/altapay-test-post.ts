/**
 * The routes' side of `altapay-check --reach` (lib/callbacks/test-post.ts), on AltaPay's
 * notification (/hooks/payment/altapay_<id>) and return (/altapay/return/<id>/<kind>) posts.
 * `noteAltaPayTestPost` runs before the callbackSources check and only notes a test post, and the
 * address it came from on the answer, so a 403 still tells the check what Medusa saw.
 * `answerAltaPayTestPost` runs after it and answers the test post: nothing reads or changes a payment.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { isTestPostOrderId, testPostSignature, TEST_POST_FROM_HEADER, TEST_POST_HEADER, type TestPostSignature } from "../lib/callbacks/test-post"
import { altapayOptionsFromConfig } from "../lib/registrations/from-config"

const TARGETS = /^\/(?:hooks\/payment\/(?:pp_)?altapay_([\w-]+)|altapay\/return\/([\w-]+)\/(?:success|failure))\/?$/

interface NotedTestPost {
  provider: string
  kind: "notification" | "return"
  shopOrderId: string
  signature: TestPostSignature
}

export function noteAltaPayTestPost(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  const shopOrderId = (req.body as Record<string, unknown> | undefined)?.shop_orderid
  const target = TARGETS.exec((req.originalUrl ?? req.url).split("?")[0])
  if (!target || !isTestPostOrderId(shopOrderId)) return next()
  const provider = `pp_altapay_${target[1] ?? target[2]}`
  let secret: string | undefined
  try {
    secret = altapayOptionsFromConfig(req.scope, provider).options.callbackSecret
  } catch {
    return next() // No such registration: the route answers as for any post.
  }
  const raw = (req as MedusaRequest & { rawBody?: unknown }).rawBody
  const signature = testPostSignature(Buffer.isBuffer(raw) ? raw : undefined, req.headers["altapay-signature"], secret)
  res.locals.altapayTestPost = { provider, kind: target[1] ? "notification" : "return", shopOrderId, signature } satisfies NotedTestPost
  res.setHeader(TEST_POST_FROM_HEADER, req.ip ?? "unknown")
  next()
}

export function answerAltaPayTestPost(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  const noted = res.locals.altapayTestPost as NotedTestPost | undefined
  if (!noted) return next()
  res.setHeader("cache-control", "no-store")
  res.setHeader(TEST_POST_HEADER, noted.signature === "verified" ? "received" : noted.signature)
  const about = `AltaPay test post ${noted.shopOrderId} to ${noted.provider} (${noted.kind}) from ${req.ip ?? "unknown"}`
  if (noted.signature === "verified") {
    res.status(200).type("text/plain").send(`${about}: received; nothing was changed.`)
    return
  }
  const why = noted.signature === "no-callback-secret" ? "this store has no callbackSecret for it" : "its AltaPay-Signature does not verify with this store's callbackSecret"
  res.status(401).type("text/plain").send(`${about}: not accepted, ${why}.`)
}
