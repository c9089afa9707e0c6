/**
 * Medusa's admin UI with our widget, for a real browser against the whole-app test store.
 *
 * medusaIntegrationTestRunner always disables the admin, and the admin is a Vite build of the
 * dashboard plus the extensions. So the UI is built once (in a child process, cached under
 * .cache/admin-ui by a hash of src/admin and the admin packages' versions) and served by a small
 * server that also forwards every non-/app request to the test app: one origin, so the admin's
 * session cookie works exactly as when Medusa serves /app itself.
 */
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import fs from "node:fs"
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import path from "node:path"
import { REPO_ROOT } from "../../../tools/test-store/app/config"

const ADMIN_SOURCE = path.join(REPO_ROOT, "src/admin")
const CACHE_ROOT = path.join(REPO_ROOT, ".cache/admin-ui")
const BUILD_SCRIPT = path.join(__dirname, "build-admin-ui.js")
const VERSIONED_PACKAGES = ["@medusajs/dashboard", "@medusajs/admin-bundler", "@medusajs/admin-vite-plugin", "@medusajs/ui", "@medusajs/admin-sdk"]

export interface BuiltAdminUi {
  dir: string
  cached: boolean
  ms: number
}

/** The built admin (index.html + assets), building it when src/admin or the packages changed. */
export async function buildAdminUi(): Promise<BuiltAdminUi> {
  const started = Date.now()
  const key = cacheKey()
  const dir = path.join(CACHE_ROOT, key, "dist")
  if (fs.existsSync(path.join(dir, "index.html"))) return { dir, cached: true, ms: Date.now() - started }

  // Older builds are of no use any more.
  fs.rmSync(CACHE_ROOT, { recursive: true, force: true })
  const work = path.join(CACHE_ROOT, key, "work")
  const partial = path.join(CACHE_ROOT, key, "dist.partial")
  fs.mkdirSync(work, { recursive: true })
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [BUILD_SCRIPT, partial, ADMIN_SOURCE], {
      cwd: work,
      env: { ...process.env, NODE_ENV: "production", NODE_OPTIONS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("error", reject)
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`Building the admin UI failed (exit ${code}):\n${output.slice(-4000)}`))))
  })
  fs.renameSync(partial, dir)
  fs.rmSync(work, { recursive: true, force: true })
  return { dir, cached: false, ms: Date.now() - started }
}

const ADMIN_IMPORTS_OUTSIDE = ["src/altapay/money.ts", "src/lib/languages/languages.ts", "src/lib/languages/text.ts"]

function cacheKey(): string {
  const hash = createHash("sha256")
  for (const name of VERSIONED_PACKAGES) {
    // Read directly: some of these packages do not export their package.json.
    const pkg = path.join(REPO_ROOT, "node_modules", name, "package.json")
    hash.update(`${name}@${fs.existsSync(pkg) ? JSON.parse(fs.readFileSync(pkg, "utf8")).version : "missing"}\n`)
  }
  hash.update(fs.readFileSync(BUILD_SCRIPT))
  for (const file of filesUnder(ADMIN_SOURCE)) {
    hash.update(path.relative(ADMIN_SOURCE, file))
    hash.update(fs.readFileSync(file))
  }
  // Bundled into the admin from outside src/admin (amounts by ISO 4217 exponent, the six languages).
  for (const file of ADMIN_IMPORTS_OUTSIDE) hash.update(fs.readFileSync(path.join(REPO_ROOT, file)))
  return hash.digest("hex").slice(0, 16)
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
}

export interface ServedAdminUi {
  /** e.g. http://127.0.0.1:41235 ; the admin is at `${url}/app`. */
  url: string
  close(): Promise<void>
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
}

/** Serves the built admin at /app and forwards everything else to `medusaUrl`. */
export async function serveAdminUi(distDir: string, medusaUrl: string): Promise<ServedAdminUi> {
  const target = new URL(medusaUrl)
  const index = fs.readFileSync(path.join(distDir, "index.html"))
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost")
    if (url.pathname === "/app" || url.pathname.startsWith("/app/")) return serveStatic(distDir, index, url.pathname, res)
    forward(req, res, target)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function serveStatic(distDir: string, index: Buffer, pathname: string, res: ServerResponse): void {
  const relative = decodeURIComponent(pathname.replace(/^\/app\/?/, ""))
  const file = path.resolve(distDir, relative)
  if (relative && file.startsWith(distDir + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" })
    fs.createReadStream(file).pipe(res)
    return
  }
  // A client-side route of the dashboard (/app/orders/...).
  res.writeHead(200, { "content-type": TYPES[".html"], "cache-control": "no-cache" })
  res.end(index)
}

function forward(req: IncomingMessage, res: ServerResponse, target: URL): void {
  const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers)
    answer.pipe(res)
  })
  upstream.on("error", (error) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" })
    res.end(`proxy error: ${error.message}`)
  })
  req.pipe(upstream)
}

/** The slice of a playwright-core Page that signing in uses. */
interface SignInPage {
  goto(url: string): Promise<unknown>
  locator(selector: string): { fill(value: string): Promise<void>; click(): Promise<void> }
  waitForURL(url: RegExp, options?: { timeout?: number }): Promise<void>
}

/** Signs into the served admin with the login form, as a merchant does; lands on the orders list. */
export async function signInToAdmin(page: SignInPage, adminUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${adminUrl}/app/login`)
  await page.locator('input[name="email"]').fill(email)
  await page.locator('input[name="password"]').fill(password)
  await page.locator('button[type="submit"]').click()
  await page.waitForURL(/\/app\/orders/, { timeout: 30_000 })
}
