/**
 * Calls the Medusa admin API the way the dashboard does: same backend URL, the admin's session
 * cookie (or its JWT when the dashboard runs with ADMIN_AUTH_TYPE=jwt). Errors carry the server's
 * message, e.g. AltaPay's reason for refusing a refund.
 */

const backendUrl = (typeof __BACKEND_URL__ !== "undefined" && __BACKEND_URL__) || "/"
const authType = (typeof __AUTH_TYPE__ !== "undefined" && __AUTH_TYPE__) || "session"
const jwtKey = (typeof __JWT_TOKEN_STORAGE_KEY__ !== "undefined" && __JWT_TOKEN_STORAGE_KEY__) || "medusa_auth_token"

export class AdminApiError extends Error {
  constructor(
    message: string,
    readonly status: number
  ) {
    super(message)
    this.name = "AdminApiError"
  }
}

export async function adminFetch<T>(path: string, init: { method?: "GET" | "POST"; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" }
  if (init.body !== undefined) headers["content-type"] = "application/json"
  if (authType === "jwt") {
    const token = window.localStorage.getItem(jwtKey)
    if (token) headers.authorization = `Bearer ${token}`
  }
  const url = `${backendUrl.replace(/\/+$/, "")}${path}`
  const response = await fetch(url, {
    method: init.method ?? "GET",
    credentials: "include",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const text = await response.text()
  const json = text ? safeJson(text) : undefined
  if (!response.ok) {
    const message = (json as { message?: unknown } | undefined)?.message
    throw new AdminApiError(typeof message === "string" && message ? message : `${response.status} ${response.statusText}`.trim(), response.status)
  }
  return json as T
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
