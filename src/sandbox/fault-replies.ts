/** Answers for faults that stop a request before any handler runs (nothing is processed). */
import { GatewayErrorCode } from "./gateway/gateway-errors"
import { apiResponse } from "./gateway/gateway-xml"
import type { FaultKind } from "./faults"
import { html, json, xml, type Reply } from "./http"
import type { LedgerApi } from "./ledger"

/** Faults answered without processing the request. "reset" is handled by the server (no answer at all). */
export const PRE_PROCESSING_FAULTS: ReadonlySet<FaultKind> = new Set(["500", "503", "429", "html", "malformed-json", "expire-token", "error-code"])

const plain = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { "content-type": "text/plain; charset=utf-8", ...headers },
  body,
})

export function faultReply(kind: FaultKind, api: LedgerApi, operation: string, nowMs: number): Reply {
  const checkout = api === "checkout"
  switch (kind) {
    case "500":
      return checkout ? json(500, { error: "internal_error", message: "Injected fault: internal server error." }) : plain(500, "Internal Server Error")
    case "503":
      return checkout ? json(503, { error: "unavailable", message: "Injected fault: service unavailable." }) : plain(503, "Service Unavailable")
    case "429":
      return checkout
        ? json(429, { error: "rate_limited", message: "Injected fault: too many requests." }, { "retry-after": "0" })
        : plain(429, "Too Many Requests", { "retry-after": "0" })
    case "html":
      return html(502, "<!doctype html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>")
    case "malformed-json":
      return checkout
        ? { status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body: '{"token": "eyJhbGciOi, "sessionId": ' }
        : { status: 200, headers: { "content-type": "text/xml; charset=utf-8" }, body: '<?xml version="1.0"?><APIResponse version="20170228"><Header><Date>' }
    case "expire-token":
      return checkout ? json(401, { error: "token_expired", message: "The token has expired; request a new one from /authenticate." }) : plain(401, "Unauthorized")
    case "error-code":
      return checkout
        ? json(500, { error: "internal_error", message: "Injected fault: error code." })
        : xml(200, apiResponse(operation, nowMs, [], { code: GatewayErrorCode.INJECTED, message: "Injected fault: internal gateway error." }))
    default:
      return plain(500, `Fault ${kind} has no canned answer.`)
  }
}
