/** Shared helpers for the sandbox tests: real HTTP against a sandbox on a random port. */
import { XMLParser } from "fast-xml-parser"
import { startSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox"

export const USERNAME = "shop-api@example.com"
export const PASSWORD = "correct horse battery staple"
export const CALLBACK_SECRET = "callback-secret-for-tests"

export const basicHeader = (username = USERNAME, password = PASSWORD): string => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`

export function start(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  return startSandbox({ username: USERNAME, password: PASSWORD, callbackSecret: CALLBACK_SECRET, ...options })
}

export interface JsonAnswer {
  status: number
  body: any
  headers: Headers
}

export async function call(sandbox: Sandbox, method: string, path: string, options: { token?: string; body?: unknown; basic?: string } = {}): Promise<JsonAnswer> {
  const headers: Record<string, string> = {}
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.basic) headers.authorization = options.basic
  if (options.body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(`${sandbox.checkoutUrl}/checkout/v1/api${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers }
}

export async function issueToken(sandbox: Sandbox, body?: { role?: string; sessionId?: string }): Promise<string> {
  const answer = await call(sandbox, "POST", "/authenticate", { basic: basicHeader(), body })
  expect(answer.status).toBe(200)
  return answer.body.token as string
}

export function sessionBody(
  overrides: { amount?: number; currency?: string; orderId?: string; autoCapture?: boolean; notification?: string; success?: string; failure?: string; orderLines?: unknown[] } = {}
): Record<string, unknown> {
  const callbacks: Record<string, unknown> = {}
  if (overrides.notification) callbacks.notification = overrides.notification
  if (overrides.success) callbacks.success = { type: "URL", value: overrides.success }
  if (overrides.failure) callbacks.failure = { type: "URL", value: overrides.failure }
  return {
    order: {
      orderId: overrides.orderId ?? `order-${Math.random().toString(36).slice(2, 10)}`,
      amount: { value: overrides.amount ?? 100, currency: overrides.currency ?? "DKK" },
      ...(overrides.orderLines ? { orderLines: overrides.orderLines } : {}),
      customer: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", billingAddress: { street: "Main 1", city: "Copenhagen", zipCode: "2100", country: "DK" } },
    },
    callbacks,
    configuration: { paymentType: "PAYMENT", autoCapture: overrides.autoCapture ?? false },
  }
}

export async function createSession(sandbox: Sandbox, body: Record<string, unknown> = sessionBody()): Promise<string> {
  const merchant = await issueToken(sandbox, { role: "MERCHANT" })
  const answer = await call(sandbox, "POST", "/session", { token: merchant, body })
  expect(answer.status).toBe(200)
  return answer.body.sessionId as string
}

/** A session paid by card; returns its transaction id. */
export async function authorizedTransaction(sandbox: Sandbox, overrides: Parameters<typeof sessionBody>[0] = {}): Promise<string> {
  const sessionId = await createSession(sandbox, sessionBody(overrides))
  const paid = await sandbox.simulatePayment(sessionId, { callback: false })
  return paid.transactionId as string
}

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => name === "Transaction" || name === "ReconciliationIdentifier" })

export interface GatewayAnswer {
  status: number
  text: string
  header: { ErrorCode: string; ErrorMessage: string; Path: string; Date: string }
  body: any
}

export async function gateway(sandbox: Sandbox, method: string, fields: Record<string, string> = {}, options: { auth?: string; get?: boolean } = {}): Promise<GatewayAnswer> {
  const form = new URLSearchParams(fields).toString()
  const url = `${sandbox.gatewayUrl}/merchant/API/${method}${options.get ? `?${form}` : ""}`
  const response = await fetch(url, {
    method: options.get ? "GET" : "POST",
    headers: { authorization: options.auth ?? basicHeader(), ...(options.get ? {} : { "content-type": "application/x-www-form-urlencoded" }) },
    body: options.get ? undefined : form,
  })
  const text = await response.text()
  const parsed = response.headers.get("content-type")?.includes("xml") ? parser.parse(text) : undefined
  return { status: response.status, text, header: parsed?.APIResponse?.Header, body: parsed?.APIResponse?.Body }
}
