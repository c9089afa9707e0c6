/** Which handler answers which method and path, and how the ledger names the operation. */
import { chargebackRoute } from "./callbacks/callbacks"
import * as checkout from "./checkout/checkout-api"
import type { Exchange } from "./env"
import { gateway } from "./gateway/gateway-api"
import { showAgreementPage, submitAgreementPage } from "./agreements/agreement-page"
import { answerChallenge, showChallenge } from "./three-d-secure"
import { logo, openLink, showPaymentPage, submitPayment } from "./hosted-page/hosted-page"
import type { Reply } from "./http"
import type { LedgerApi } from "./ledger"

export interface Route {
  api: LedgerApi
  methods: readonly string[]
  pattern: RegExp
  operation: (params: string[]) => string
  handle: (ex: Exchange, params: string[]) => Promise<Reply> | Reply
}

const API = "/checkout/v1/api"
const ID = "([^/]+)"
const named = (name: string) => (): string => name

export const ROUTES: readonly Route[] = [
  { api: "checkout", methods: ["POST"], pattern: new RegExp(`^${API}/authenticate$`), operation: named("authenticate"), handle: (ex) => checkout.authenticate(ex) },
  { api: "checkout", methods: ["POST"], pattern: new RegExp(`^${API}/session$`), operation: named("session.create"), handle: (ex) => checkout.createSession(ex) },
  { api: "checkout", methods: ["GET"], pattern: new RegExp(`^${API}/session/${ID}$`), operation: named("session.read"), handle: (ex, [id]) => checkout.readSession(ex, id) },
  { api: "checkout", methods: ["PUT"], pattern: new RegExp(`^${API}/session/${ID}$`), operation: named("session.update"), handle: (ex, [id]) => checkout.updateSession(ex, id) },
  {
    api: "checkout",
    methods: ["GET"],
    pattern: new RegExp(`^${API}/session/${ID}/payment-methods$`),
    operation: named("session.paymentMethods"),
    handle: (ex, [id]) => checkout.listPaymentMethods(ex, id),
  },
  { api: "checkout", methods: ["POST"], pattern: new RegExp(`^${API}/session/${ID}/link$`), operation: named("link.create"), handle: (ex, [id]) => checkout.createLink(ex, id) },
  { api: "checkout", methods: ["POST"], pattern: new RegExp(`^${API}/payment$`), operation: named("payment.create"), handle: (ex) => checkout.createPaymentRoute(ex) },
  { api: "checkout", methods: ["GET"], pattern: new RegExp(`^${API}/payment/${ID}$`), operation: named("payment.read"), handle: (ex, [id]) => checkout.readPayment(ex, id) },
  { api: "gateway", methods: ["GET", "POST"], pattern: /^\/merchant\/API\/([A-Za-z]+)$/, operation: ([method]) => method, handle: (ex, [method]) => gateway(ex, method) },
  { api: "hosted", methods: ["GET"], pattern: new RegExp(`^/sandbox/pay/${ID}$`), operation: named("hosted.page"), handle: (ex, [id]) => showPaymentPage(ex, id) },
  { api: "hosted", methods: ["POST"], pattern: new RegExp(`^/sandbox/pay/${ID}$`), operation: named("hosted.submit"), handle: (ex, [id]) => submitPayment(ex, id) },
  { api: "hosted", methods: ["GET"], pattern: new RegExp(`^/sandbox/agreement/${ID}$`), operation: named("agreement.page"), handle: (ex, [id]) => showAgreementPage(ex, id) },
  { api: "hosted", methods: ["POST"], pattern: new RegExp(`^/sandbox/agreement/${ID}$`), operation: named("agreement.submit"), handle: (ex, [id]) => submitAgreementPage(ex, id) },
  { api: "hosted", methods: ["GET"], pattern: new RegExp(`^/sandbox/3ds/${ID}$`), operation: named("3ds.page"), handle: (ex, [id]) => showChallenge(ex, id) },
  { api: "hosted", methods: ["POST"], pattern: new RegExp(`^/sandbox/3ds/${ID}$`), operation: named("3ds.submit"), handle: (ex, [id]) => answerChallenge(ex, id) },
  { api: "hosted", methods: ["GET"], pattern: new RegExp(`^/sandbox/link/${ID}$`), operation: named("link.open"), handle: (ex, [id]) => openLink(ex, id) },
  { api: "hosted", methods: ["GET"], pattern: new RegExp(`^/sandbox/logos/${ID}$`), operation: named("hosted.logo"), handle: (ex, [name]) => logo(ex, name) },
  {
    api: "hosted",
    methods: ["POST"],
    pattern: new RegExp(`^/sandbox/chargeback/${ID}$`),
    operation: named("sandbox.chargeback"),
    handle: (ex, [transactionId]) => chargebackRoute(ex, transactionId),
  },
]

export type RouteMatch = { route: Route; params: string[] } | { route: undefined; allowed: string[] }

export function matchRoute(method: string, path: string): RouteMatch {
  const allowed: string[] = []
  for (const route of ROUTES) {
    const match = route.pattern.exec(path)
    if (!match) continue
    const params = match.slice(1).map(safeDecode)
    if (route.methods.includes(method)) return { route, params }
    allowed.push(...route.methods)
  }
  return { route: undefined, allowed }
}

export function apiOf(path: string): LedgerApi {
  if (path.startsWith("/merchant/")) return "gateway"
  if (path.startsWith("/sandbox/")) return "hosted"
  return "checkout"
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
