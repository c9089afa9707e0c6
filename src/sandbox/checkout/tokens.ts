/**
 * Checkout tokens: HS256 JWTs signed with a per-process random key. The sandbox also keeps the
 * state a JWT cannot carry: which unbound CUSTOMER token created which session, and which CUSTOMER
 * tokens are spent (a CUSTOMER token is one-time-use once it has created a payment).
 */
import { randomBytes, randomUUID } from "node:crypto"
import { SignJWT, jwtVerify, errors as joseErrors } from "jose"

export type Role = "CUSTOMER" | "MERCHANT"

export interface TokenClaims {
  role: Role
  jti: string
  upn: string
  /** Session the token is bound to: from issue (`sid`) or from the session it created. */
  sessionId?: string
  exp: number
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; error: "unauthorized" | "token_expired" | "token_spent"; message: string }

const ISSUER = "altapay-sandbox"
const GROUPS: Record<Role, string[]> = {
  CUSTOMER: ["SessionUpdate", "ExecutePayment", "ListPaymentMethods"],
  MERCHANT: ["SessionCreate", "SessionUpdate", "SessionRead", "ExecutePayment", "PaymentRead", "ListPaymentMethods", "PaymentLink"],
}
const LIFETIME_SECONDS = 3600

export class TokenService {
  private readonly key = randomBytes(32)
  private readonly spent = new Set<string>()
  private readonly boundLater = new Map<string, string>()

  constructor(
    private readonly now: () => number,
    private readonly username: string
  ) {}

  async issue(role: Role, sessionId?: string): Promise<string> {
    const iat = Math.floor(this.now() / 1000)
    const claims: Record<string, unknown> = { upn: this.username, role, groups: GROUPS[role] }
    if (role === "CUSTOMER" && sessionId) claims.sid = sessionId
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(ISSUER)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + LIFETIME_SECONDS)
      .sign(this.key)
  }

  async verify(token: string): Promise<TokenCheck> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: ["HS256"],
        currentDate: new Date(this.now()),
        clockTolerance: 0,
      })
      const role = payload.role
      if ((role !== "CUSTOMER" && role !== "MERCHANT") || typeof payload.jti !== "string" || typeof payload.exp !== "number") {
        return { ok: false, error: "unauthorized", message: "The token is not a sandbox checkout token." }
      }
      if (this.spent.has(payload.jti)) {
        return { ok: false, error: "token_spent", message: "This CUSTOMER token was used to create a payment and cannot be used again." }
      }
      const sid = typeof payload.sid === "string" ? payload.sid : this.boundLater.get(payload.jti)
      return { ok: true, claims: { role, jti: payload.jti, upn: String(payload.upn ?? ""), sessionId: sid, exp: payload.exp } }
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        return { ok: false, error: "token_expired", message: "The token has expired; request a new one from /authenticate." }
      }
      return { ok: false, error: "unauthorized", message: "The bearer token is not valid." }
    }
  }

  /** An unbound CUSTOMER token becomes bound to the one session it creates. */
  bind(jti: string, sessionId: string): void {
    this.boundLater.set(jti, sessionId)
  }

  spend(jti: string): void {
    this.spent.add(jti)
  }
}
