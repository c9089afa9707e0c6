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

/** The backend URL of an admin API path, e.g. for a link the browser follows itself. */
export const adminUrl = (path: string): string => `${backendUrl.replace(/\/+$/, "")}${path}`

function authHeaders(): Record<string, string> {
  if (authType !== "jwt") return {}
  const token = window.localStorage.getItem(jwtKey)
  return token ? { authorization: `Bearer ${token}` } : {}
}

/** JWT auth: a link the browser follows itself carries no token (session auth sends the cookie). */
export const tokenAuth = authType === "jwt"

/** Downloads an admin file with the token (for `tokenAuth`), saved as `filename`. */
export async function downloadWithToken(path: string, filename: string): Promise<void> {
  const response = await fetch(adminUrl(path), { credentials: "include", headers: authHeaders() })
  if (!response.ok) throw new AdminApiError(`${response.status} ${response.statusText}`.trim(), response.status)
  const href = URL.createObjectURL(await response.blob())
  Object.assign(document.createElement("a"), { href, download: filename }).click()
  // Revoked later: some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(href), 60_000)
}

export async function adminFetch<T>(path: string, init: { method?: "GET" | "POST" | "DELETE"; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", ...authHeaders() }
  if (init.body !== undefined) headers["content-type"] = "application/json"
  const url = adminUrl(path)
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
