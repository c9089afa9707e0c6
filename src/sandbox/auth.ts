/** How a request authenticated: Basic for /authenticate and the gateway, Bearer JWT for checkout. */
import type { Exchange, SandboxEnv } from "./env"
import { bearerToken, checkBasic, jsonError, type Reply } from "./http"
import type { LedgerAuth } from "./ledger"
import type { TokenClaims } from "./checkout/tokens"

export function basicAuth(ex: Exchange): boolean {
  const check = checkBasic(ex.headers, ex.env.config.username, ex.env.config.password)
  ex.auth = check === "valid" ? "basic" : check
  return check === "valid"
}

/** The verified claims of the request's bearer token, or the 401 to answer. */
export async function bearerAuth(ex: Exchange): Promise<TokenClaims | Reply> {
  const token = bearerToken(ex.headers)
  if (!token) {
    ex.auth = ex.headers.authorization ? "invalid" : "none"
    return jsonError(401, "unauthorized", "Send Authorization: Bearer <token> with a token from /checkout/v1/api/authenticate.")
  }
  const check = await ex.env.tokens.verify(token)
  if (!check.ok) {
    ex.auth = "invalid"
    return jsonError(401, check.error, check.message)
  }
  ex.auth = `bearer:${check.claims.role}`
  return check.claims
}

export const isReply = (value: TokenClaims | Reply): value is Reply => "status" in value && "body" in value

/** Ledger classification of a request a fault answered before any handler ran. */
export async function describeAuth(env: SandboxEnv, headers: Exchange["headers"]): Promise<LedgerAuth> {
  const basic = checkBasic(headers, env.config.username, env.config.password)
  if (basic === "valid") return "basic"
  const token = bearerToken(headers)
  if (token) {
    const check = await env.tokens.verify(token)
    return check.ok ? `bearer:${check.claims.role}` : "invalid"
  }
  return basic
}
