/**
 * What an answer to a test post (reach.ts) says about the way from the internet to the store: the
 * plugin's own answer (its `altapay-test-post` headers, lib/callbacks/test-post.ts) means the post
 * arrived; anything else is named by what gave it: no connection (DNS, firewall, nothing
 * listening, TLS), a 403 from callbackSources (with the address Medusa saw) or from something in
 * front of Medusa, a proxy's 502/504, a cache's answer, a redirect.
 */
import { ALTAPAY_CALLBACK_SOURCES, sourceCheck, type CallbackSources } from "../lib/callbacks/source-addresses"
import { TEST_POST_FROM_HEADER, TEST_POST_HEADER } from "../lib/callbacks/test-post"
import { WEBHOOK_SECRET_AT_ALTAPAY } from "../lib/registrations/option-hints"
import { internalHost, loopbackHost, portOf } from "../lib/registrations/production-urls"
import type { Finding } from "./check-line"

export interface ReachTarget {
  kind: "notification" | "return"
  url: string
}

export type ReachOutcome = { status: number; headers: Record<string, string>; body: string } | { error: unknown }

export interface ReachContext {
  /** The registration's callbackSources as this check read them. */
  callbackSources?: CallbackSources
  /** backendUrl's host. */
  backendHost: string
  /** This machine's addresses. */
  ownAddresses: Set<string>
}

const ALTAPAY_ADDRESSES = ALTAPAY_CALLBACK_SOURCES.join(", ")
/** Headers that name what answered: a proxy, a CDN, a cache. */
const TELLING_HEADERS = ["server", "via", "cf-ray", "x-amz-cf-id", "x-served-by", "x-cache", "cf-cache-status", "x-proxy-cache", "age", "content-type"]
const NO_CACHE = "turn caching off for /hooks/payment/altapay_* and /altapay/return/* (AltaPay: callbacks fail behind caching services)"

export function verdictOf(target: ReachTarget, shopOrderId: string, outcome: ReachOutcome, context: ReachContext): Finding {
  const at = `${target.kind} URL ${target.url}`
  if ("error" in outcome) return ["problem", `${at}: ${unreached(new URL(target.url), outcome.error)}`]
  const { status, headers, body } = outcome
  const answer = headers[TEST_POST_HEADER]
  const from = headers[TEST_POST_FROM_HEADER]
  const seen = telling(headers)
  if (status >= 200 && status < 300 && answer === "received") {
    if (body.includes(shopOrderId)) return ["ok", `${at}: the test post arrived; the plugin answered it (Medusa saw it from ${from ?? "an unknown address"})`]
    return ["problem", `${at}: a cache answered with the plugin's answer to an earlier test post${seen}; ${NO_CACHE}`]
  }
  if (status === 401 && answer) return ["problem", `${at}: ${refusedSignature(answer)}`]
  if (status === 403) return from ? refusedBySources(at, from.replace(/^::ffff:/, ""), context) : ["problem", `${at}: ${FORBIDDEN}${seen}`]
  if (status >= 300 && status < 400) return ["problem", `${at}: ${redirected(target, status, headers.location)}${seen}`]
  if (cached(headers)) return ["problem", `${at}: a cache answered (${status})${seen}; ${NO_CACHE}`]
  if (status >= 200 && status < 300) {
    return [
      "problem",
      `${at}: answered ${status}, but not as the plugin answers a test post${seen}: the server runs a medusa-payment-altapay from before test posts (update it), or something else answers at this address`,
    ]
  }
  if (status === 502 || status === 504) {
    return [
      "problem",
      `${at}: a proxy answered ${status}${seen}: it got no answer from Medusa behind it; check that Medusa runs and that the proxy forwards to Medusa's address and port`,
    ]
  }
  if (status === 404) return ["problem", `${at}: 404${seen}: ${target.kind === "notification" ? NO_WEBHOOK_ROUTE : NO_RETURN_ROUTE}`]
  return ["problem", `${at}: answered ${status}${seen}: ${body.split("\n")[0].slice(0, 200)}`]
}

const FORBIDDEN =
  "403 from something in front of Medusa (a firewall, WAF or bot protection), or from callbackSources of a plugin version from before test posts (the store's log then says `AltaPay: refused POST … from <address>`); let AltaPay's addresses through: " +
  ALTAPAY_ADDRESSES
const NO_WEBHOOK_ROUTE = "Medusa's webhook route is not there: MEDUSA_BACKEND_URL must be the Medusa server's own root URL, and a proxy in front must forward /hooks/payment/*"
const NO_RETURN_ROUTE = "the plugin's return endpoint is not there: add medusa-payment-altapay to plugins, and make a proxy in front forward /altapay/return/*"

function telling(headers: Record<string, string>): string {
  const found = TELLING_HEADERS.filter((name) => headers[name]).map((name) => `${name}: ${headers[name].slice(0, 80)}`)
  return found.length > 0 ? ` (${found.join("; ")})` : ""
}

function cached(headers: Record<string, string>): boolean {
  if (Number(headers.age) > 0) return true
  if (["x-cache", "cf-cache-status", "x-proxy-cache", "x-vercel-cache"].some((name) => /\bhit\b/i.test(headers[name] ?? ""))) return true
  return /^\d+\s+\d+$/.test(headers["x-varnish"] ?? "")
}

function refusedSignature(answer: string): string {
  if (answer === "no-callback-secret") {
    return "reached the plugin, but the store has no callbackSecret for this registration while this check's configuration has one: the store runs with other options than this check read; give both the same environment"
  }
  return `reached the plugin, which does not accept the test post's signature: the store's callbackSecret is not the one this check read (ALTAPAY_CALLBACK_SECRET); give the store and this check the same value, the secret from ${WEBHOOK_SECRET_AT_ALTAPAY}`
}

/** A 403 the plugin's callbackSources gave: is it the one AltaPay's own posts would get? */
function refusedBySources(at: string, address: string, context: ReachContext): Finding {
  const reached = `reached Medusa, which refused it (403, callbackSources) from ${address}`
  const proxyHere = loopbackHost(address) && !loopbackHost(context.backendHost)
  if (proxyHere || (internalHost(address) && !context.ownAddresses.has(address))) {
    return [
      "problem",
      `${at}: ${reached}, a proxy's address, not the sender's: AltaPay's posts are refused the same way; make the proxy pass the caller's address in X-Forwarded-For and Medusa trust it (docs/security.md, "Where callbacks come from"), then run --reach again`,
    ]
  }
  const sources = context.callbackSources
  if (!sources) return ["problem", `${at}: ${reached}, but this check's configuration has no callbackSources: the store runs with other options than this check read`]
  const admits = sourceCheck(sources)
  if (!ALTAPAY_CALLBACK_SOURCES.some((entry) => admits(entry.split("/")[0]))) {
    return [
      "problem",
      `${at}: ${reached}; callbackSources (${JSON.stringify(sources)}) admits none of AltaPay's addresses (${ALTAPAY_ADDRESSES}), so AltaPay's posts are refused too; set callbackSources: "altapay"`,
    ]
  }
  return [
    "note",
    `${at}: ${reached}, as it refuses every address but AltaPay's (${ALTAPAY_ADDRESSES}); AltaPay's own posts pass if Medusa sees their address: if ${address} is not the address this check ran from, a proxy hides the caller (docs/security.md)`,
  ]
}

function redirected(target: ReachTarget, status: number, location: string | undefined): string {
  const toHttp = location?.startsWith("http:") ? ", to http://: the post would leave https" : ""
  const oldReturn = target.kind === "return" && status === 303 ? "; or the server runs a medusa-payment-altapay from before test posts, whose return endpoint answers 303" : ""
  return `answered ${status} with a redirect to ${location ?? "(no Location)"}${toHttp}: AltaPay posts to the URL it was given, and a redirected post loses its form; set MEDUSA_BACKEND_URL to the address that answers without a redirect${oldReturn}`
}

/** A Node or undici error's code (theirs or their cause's); errors may come from another realm, so no instanceof. */
function codeOf(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | null)?.code
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code
  return typeof own === "string" ? own : typeof cause === "string" ? cause : undefined
}

/** No answer at all: what stopped the connection. */
function unreached(url: URL, error: unknown): string {
  const code = codeOf(error) ?? ""
  const hostPort = `${url.hostname}:${portOf(url)}`
  if (code === "ECONNREFUSED") {
    return `nothing accepts connections at ${hostPort} (connection refused): Medusa, or the proxy in front of it, does not run there, or a firewall rejects the port; AltaPay calls ports 443 and 80 only`
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `${url.hostname} does not resolve (DNS, ${code}): correct MEDUSA_BACKEND_URL, or publish the name in public DNS`
  if (["UND_ERR_CONNECT_TIMEOUT", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"].includes(code)) {
    return `no connection to ${hostPort} (${code}): a firewall drops it, or the address is not the store's; let AltaPay's addresses (${ALTAPAY_ADDRESSES}) in on port ${portOf(url)}`
  }
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
    return `connected to ${hostPort}, but no answer came (${code}): something in front of Medusa holds the post (a proxy waiting on Medusa, a bot check)`
  }
  if (/^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code)) {
    return `the TLS connection to ${hostPort} failed (${code}): give the host a valid certificate from a public certificate authority for this name, and serve https on port 443`
  }
  if (["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"].includes(code)) return `the connection to ${hostPort} was closed without an answer (${code}): a firewall or proxy cut it`
  return `could not be reached (${code || String((error as { message?: unknown } | null)?.message ?? error)})`
}
