/**
 * Which addresses AltaPay's callbacks may come from (the `callbackSources` option). AltaPay's
 * callback pages say to accept callback traffic only from its gateway's outgoing addresses:
 * 185.206.120.0/24 (IPv6 2a10:a200::/29), 185.203.232.129 and 185.203.233.129. Off by default, so
 * a local sandbox keeps working; a list of addresses and CIDR ranges replaces AltaPay's (a test
 * store, a proxy of one's own in front of the callbacks).
 */
import { BlockList, isIP } from "node:net"

/** AltaPay's published outgoing addresses (docs/altapay-wire-facts.md, "Callbacks: who calls whom"). */
export const ALTAPAY_CALLBACK_SOURCES: readonly string[] = ["185.206.120.0/24", "2a10:a200::/29", "185.203.232.129", "185.203.233.129"]

/** One address (`185.203.232.129`, `::1`) or range (`185.206.120.0/24`, `2a10:a200::/29`); undefined when it is neither. */
export function parseSource(entry: string): { address: string; prefix?: number; family: "ipv4" | "ipv6" } | undefined {
  const [address, prefixText, ...rest] = entry.trim().split("/")
  if (rest.length > 0) return undefined
  const version = isIP(address)
  if (version === 0) return undefined
  const family = version === 4 ? "ipv4" : "ipv6"
  if (prefixText === undefined) return { address, family }
  if (!/^\d{1,3}$/.test(prefixText)) return undefined
  const prefix = Number(prefixText)
  return prefix <= (version === 4 ? 32 : 128) ? { address, prefix, family } : undefined
}

export type CallbackSources = "altapay" | string[]

/** Whether an address may send callbacks; built once per option value. */
export type SourceCheck = (ip: string | undefined) => boolean

export function sourceCheck(sources: CallbackSources): SourceCheck {
  const list = new BlockList()
  for (const entry of sources === "altapay" ? ALTAPAY_CALLBACK_SOURCES : sources) {
    const source = parseSource(entry)
    // The option's schema refuses such entries; a bad one here allows nothing rather than everything.
    if (!source) continue
    if (source.prefix === undefined) list.addAddress(source.address, source.family)
    else list.addSubnet(source.address, source.prefix, source.family)
  }
  return (ip) => {
    if (!ip) return false
    const version = isIP(ip)
    if (version === 0) return false
    // BlockList matches an IPv4-mapped IPv6 address (::ffff:185.206.120.7) against IPv4 ranges too.
    return list.check(ip, version === 4 ? "ipv4" : "ipv6")
  }
}

/**
 * The address a callback came from: the socket's peer, or, when that peer is one of the merchant's
 * own proxies (`callbackProxies`), the address the proxies say they received it from: X-Forwarded-For
 * read from the right, past every listed proxy (the rule of proxy-addr, which Express uses). Not
 * Express's `req.ip`: Medusa 2.21 sets `trust proxy` to 1 itself, so `req.ip` believes the last
 * X-Forwarded-For entry of any request, also one sent straight to Medusa by anybody.
 */
export function callerAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, isProxy: SourceCheck | undefined): string | undefined {
  if (!peer || !isProxy) return peer
  const hops = [forwardedFor ?? []]
    .flat()
    .flatMap((header) => header.split(","))
    .map((hop) => hop.trim())
    .filter(Boolean)
  let address = peer
  while (isProxy(address) && hops.length > 0) address = hops.pop()!
  return address
}

const checks = new Map<string, SourceCheck>()

/** The check for an option value, kept per distinct value (the middleware runs on every callback). */
export function cachedSourceCheck(sources: CallbackSources): SourceCheck {
  const key = sources === "altapay" ? "altapay" : JSON.stringify(sources)
  let check = checks.get(key)
  if (!check) {
    check = sourceCheck(sources)
    checks.set(key, check)
  }
  return check
}
