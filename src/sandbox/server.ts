/**
 * The HTTP front of the sandbox (node:http only): routes each request, applies a matching fault,
 * records the request in the ledger and writes the answer. Open sockets are tracked so close()
 * ends keep-alive connections at once. GET /sandbox/ledger answers the ledger itself as JSON (not
 * recorded, so reading it never changes it).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { Readable, pipeline } from "node:stream"
import { describeAuth } from "./auth"
import { sleep } from "./clock"
import type { Exchange, SandboxEnv } from "./env"
import { PRE_PROCESSING_FAULTS, faultReply } from "./fault-replies"
import { CORS_ORIGIN, isCheckoutApi, json, jsonError, preflightReply, readBody, type Reply } from "./http"
import { apiOf, matchRoute } from "./routes"

export interface SandboxServer {
  server: Server
  /** Destroys every open connection (keep-alive included). */
  destroySockets(): void
}

export function createSandboxServer(env: SandboxEnv): SandboxServer {
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    handle(env, req, res).catch((error: unknown) => {
      const path = new URL(req.url ?? "/", "http://sandbox.invalid").pathname
      if (!res.headersSent) write(res, path, json(500, { error: "internal_error", message: `Sandbox error: ${String(error)}` }))
      else res.destroy()
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  server.on("clientError", (_error, socket) => socket.destroy())
  return {
    server,
    destroySockets: () => {
      for (const socket of sockets) socket.destroy()
      sockets.clear()
    },
  }
}

export const LEDGER_PATH = "/sandbox/ledger"

/** `{ entries }`: every request so far, or only those after sequence number `after`. */
function ledgerReply(env: SandboxEnv, after: string | null): Reply {
  const from = after === null ? 0 : Number(after)
  if (!Number.isInteger(from) || from < 0) return jsonError(400, "invalid_parameter", "after must be a ledger sequence number (0 or more).")
  return json(200, { entries: env.ledger.list().filter((entry) => entry.seq > from) }, { "cache-control": "no-store" })
}

/** Writes a reply (or its first half); checkout API answers, errors included, carry CORS. */
function write(res: ServerResponse, path: string, reply: Reply, half = false): void {
  const cors = isCheckoutApi(path) ? CORS_ORIGIN : {}
  if (reply.stream && !half) {
    // Chunked, with backpressure: a generated file is never whole in memory.
    res.writeHead(reply.status, { ...reply.headers, ...cors })
    pipeline(Readable.from(reply.stream()), res, (error) => error && res.destroy())
    return
  }
  const full = reply.stream ? Buffer.from([...reply.stream()].join("")) : Buffer.from(reply.body)
  const body = half ? full.subarray(0, Math.floor(full.length / 2)) : full
  res.writeHead(reply.status, { ...reply.headers, ...cors, "content-length": String(body.length) })
  res.end(body)
}

async function handle(env: SandboxEnv, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://sandbox.invalid")
  const method = (req.method ?? "GET").toUpperCase()
  const path = url.pathname
  if (method === "OPTIONS" && isCheckoutApi(path)) {
    // A browser's CORS preflight: answered before faults and handlers, never consumes a fault.
    env.ledger.record({ at: env.now(), api: "checkout", method, path, operation: "cors.preflight", auth: "none", params: {}, status: 204 })
    req.resume()
    write(res, path, preflightReply())
    return
  }
  if (method === "GET" && path === LEDGER_PATH) {
    req.resume()
    write(res, path, ledgerReply(env, url.searchParams.get("after")))
    return
  }
  const match = matchRoute(method, path)
  const api = match.route?.api ?? apiOf(path)
  const operation = match.route ? match.route.operation(match.params) : "unknown"
  const ex: Exchange = {
    env,
    method,
    path,
    query: url.searchParams,
    headers: req.headers,
    rawBody: "",
    auth: "none",
    params: Object.fromEntries(url.searchParams),
    effects: [],
  }
  const fault = match.route ? env.faults.take(path) : undefined
  const at = env.now()
  const record = (status: number): void => {
    env.ledger.record({
      at,
      api,
      method,
      path,
      operation,
      auth: ex.auth,
      params: ex.params,
      status,
      ...(fault ? { fault: fault.kind } : {}),
      ...(ex.effects.length > 0 ? { effects: ex.effects } : {}),
    })
  }

  try {
    ex.rawBody = await readBody(req)
  } catch {
    const reply = jsonError(413, "too_large", "The request body is larger than 1 MiB.")
    record(reply.status)
    write(res, path, reply)
    return
  }
  if (fault?.kind === "latency") await sleep(fault.ms)

  let reply: Reply
  if (!match.route) {
    reply =
      match.allowed.length > 0
        ? jsonError(405, "method_not_allowed", `Use ${[...new Set(match.allowed)].join(" or ")} for ${path}.`)
        : jsonError(404, "not_found", `No sandbox endpoint at ${method} ${path}.`)
    if (match.allowed.length > 0) reply.headers.allow = [...new Set(match.allowed)].join(", ")
  } else if (fault && (fault.kind === "reset" || PRE_PROCESSING_FAULTS.has(fault.kind))) {
    ex.auth = await describeAuth(env, req.headers)
    if (fault.kind === "reset") {
      // The connection drops before anything is processed or answered.
      record(0)
      req.socket.destroy()
      return
    }
    reply = faultReply(fault.kind, api, operation, env.now())
  } else {
    if (fault?.kind === "open") ex.fault = fault
    reply = await match.route.handle(ex, match.params)
  }

  if (fault?.kind === "lost-answer" && match.route) {
    // Processed (money moved), but the answer never arrives.
    record(0)
    req.socket.destroy()
    return
  }
  record(reply.status)
  if (fault?.kind === "truncate" && match.route) {
    // A proxy or crashed worker that delivers half a document, properly framed: the client must
    // notice from the content (lost connections are the `reset` and `lost-answer` faults).
    write(res, path, reply, true)
    return
  }
  write(res, path, reply)
}
