/**
 * What a live store's URLs must be. AltaPay posts the notification and the customer's return to
 * backendUrl from the internet, on ports 443 (https) and 80 (http) only (AltaPay's Callback
 * Endpoints Security and its callback pages: "Callback URLs must only use ports 443 and 80"); the
 * customer's browser is sent to successUrl / failureUrl. A host only this machine or this network
 * knows is reached by neither.
 *
 * Two kinds of finding: `refuse`, what cannot work at all (the provider refuses to start with it in
 * production against AltaPay's own gateway), and `report`, what works but should not go live
 * (altapay-check --production reports both; the provider warns of `report`).
 */
import { BlockList, isIP } from "node:net"

export interface PublicUrls {
  backendUrl: string
  successUrl?: string
  failureUrl?: string
  checkoutUrl: string
  gatewayUrl: string
}

/** Each finding as `option: message`, the form of the provider's other option problems. */
export interface UrlFindings {
  refuse: string[]
  report: string[]
}

const block = (entries: Array<[string, number, "ipv4" | "ipv6"]>): BlockList => {
  const list = new BlockList()
  for (const [address, prefix, family] of entries) list.addSubnet(address, prefix, family)
  return list
}

const LOOPBACK = block([
  ["127.0.0.0", 8, "ipv4"],
  ["0.0.0.0", 8, "ipv4"],
  ["::1", 128, "ipv6"],
  ["::", 128, "ipv6"],
])
/** RFC 1918, shared address space (RFC 6598), link-local, unique-local: never routed on the internet. */
const PRIVATE = block([
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"],
  ["169.254.0.0", 16, "ipv4"],
  ["172.16.0.0", 12, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["fc00::", 7, "ipv6"],
  ["fe80::", 10, "ipv6"],
])
/** Names that only a local network resolves (RFC 6761, RFC 6762, RFC 8375, ICANN's .internal). */
const LOCAL_SUFFIXES = ["local", "localdomain", "internal", "lan", "home.arpa"]

const bare = (hostname: string): string =>
  hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase()

const family = (address: string): "ipv4" | "ipv6" => (isIP(address) === 4 ? "ipv4" : "ipv6")

/** True for localhost and loopback addresses: the machine the URL is opened on. */
export function loopbackHost(hostname: string): boolean {
  const host = bare(hostname)
  if (isIP(host)) return LOOPBACK.check(host, family(host))
  return host === "localhost" || host.endsWith(".localhost")
}

/** Why a host cannot be reached from the internet, or undefined when it can be (as far as its name tells). */
export function internalHost(hostname: string): string | undefined {
  const host = bare(hostname)
  if (loopbackHost(host)) return isIP(host) ? "a loopback address" : "localhost"
  if (isIP(host)) return PRIVATE.check(host, family(host)) ? "a private network address" : undefined
  if (!host.includes(".")) return "a name without a domain, which only your own network resolves"
  const suffix = LOCAL_SUFFIXES.find((s) => host.endsWith(`.${s}`))
  return suffix ? `a .${suffix} name, which only your own network resolves` : undefined
}

/** The port a URL is called on, written or implied by its scheme. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80
}

const TEST_GATEWAY = /^testgateway\.altapaysecure\.com$/i

/** True when checkoutUrl or gatewayUrl is AltaPay's test gateway: its payments are not real. */
export function usesTestGateway(urls: Pick<PublicUrls, "checkoutUrl" | "gatewayUrl">): boolean {
  return [urls.checkoutUrl, urls.gatewayUrl].some((value) => {
    try {
      return TEST_GATEWAY.test(new URL(value).hostname)
    } catch {
      return false
    }
  })
}

const SET_BACKEND = "set MEDUSA_BACKEND_URL to this server's public https:// address"
const SET_STORE = "set it to the storefront's public https:// address (STORE_URL in medusa-config.example.ts)"

/** What AltaPay and customers need of a live store's URLs. */
export function productionUrlFindings(urls: PublicUrls): UrlFindings {
  const refuse: string[] = []
  const report: string[] = []
  const backend = new URL(urls.backendUrl)
  const internal = internalHost(backend.hostname)
  if (internal) {
    refuse.push(
      `backendUrl: in production, ${backend.origin} is ${internal}: AltaPay posts the notification and the customer's return to it from the internet, so they never arrive; ${SET_BACKEND}`
    )
  }
  const port = portOf(backend)
  if (port !== 443 && port !== 80) {
    refuse.push(
      `backendUrl: in production, ${backend.origin} is on port ${port}: AltaPay calls callback URLs on ports 443 (https) and 80 (http) only; ${SET_BACKEND}, port 443 (a proxy in front of Medusa)`
    )
  } else if (backend.protocol !== "https:") {
    report.push(`backendUrl: ${backend.origin} is http://: the customer's return and AltaPay's notification, with the customer's details, would travel unencrypted; ${SET_BACKEND}`)
  }
  for (const field of ["successUrl", "failureUrl"] as const) {
    const value = urls[field]
    if (!value) continue
    const landing = new URL(value)
    const where = internalHost(landing.hostname)
    if (where && loopbackHost(landing.hostname)) {
      refuse.push(`${field}: in production, ${landing.origin} is ${where}: a customer who paid would be sent to their own computer; ${SET_STORE}`)
    } else if (where) {
      report.push(`${field}: ${landing.origin} is ${where}: customers outside that network cannot open it; ${SET_STORE}`)
    } else if (landing.protocol !== "https:") {
      report.push(`${field}: ${landing.origin} is http://: ${SET_STORE}`)
    }
  }
  return { refuse, report }
}
