/**
 * What the admin browser suites share: the admin UI built while the app boots and served in front
 * of the test app, one headless Chromium per spec file (a group's browser suites share it), and
 * pages whose errors are collected and which leave a screenshot in test-artifacts/ when a step fails.
 */
import fs from "node:fs"
import path from "node:path"
import type { Browser, Locator, Page } from "playwright-core"
import { REPO_ROOT } from "../../../tools/test-store/app/config"
import { CHROMIUM, CHROMIUM_ARGS } from "../../setup/chromium"
import { buildAdminUi, serveAdminUi, type BuiltAdminUi, type ServedAdminUi } from "./admin-ui"

export const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts")
/** The merchant docs' screenshots (docs/merchant.md, docs/finance.md link them). */
export const DOC_IMAGES = path.join(REPO_ROOT, "docs/images")

export interface AdminBrowser {
  /** The served admin: `${ui().url}/app`. */
  ui(): ServedAdminUi
  browser(): Browser
  /** The suite's times, printed after it as `[name] {...}`: its tests add their own. */
  timings: Record<string, number>
}

interface Running {
  ui: ServedAdminUi
  browser: Browser
}

/** The spec file's admin UI and Chromium (jest gives each spec file its own copy of this module). */
interface FileBrowser {
  since: number
  building: Promise<BuiltAdminUi>
  running?: Promise<Running>
  /** Suites still to close it: the last one does. */
  users: number
}
let fileBrowser: FileBrowser | undefined

/** Serves the build in front of `medusaUrl` and launches Chromium: once per spec file. */
async function start(shared: FileBrowser, medusaUrl: string, timings: Record<string, number>): Promise<Running> {
  timings.boot_ms = Date.now() - shared.since
  const built = await shared.building
  timings[built.cached ? "admin_ui_cached_ms" : "admin_ui_build_ms"] = built.ms
  const ui = await serveAdminUi(built.dir, medusaUrl)
  const { chromium } = require("playwright-core") as typeof import("playwright-core")
  const started = Date.now()
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
  timings.chromium_launch_ms = Date.now() - started
  return { ui, browser }
}

/**
 * Call inside a browser suite's testSuite (at collection time, so the build, a child process
 * started by the file's first call, overlaps the app's boot). Before the suite's tests the build is
 * served in front of `medusaUrl` and Chromium launched, once for every suite of the spec file (each
 * test opens its own page, a fresh browser context); after the file's last such suite both close.
 * The suite's `timings` (printed after it as `[name] {...}`) get the boot, build and launch times
 * when it started them, and the suite's own time.
 */
export function useAdminBrowser(medusaUrl: () => string, name: string): AdminBrowser {
  const shared = (fileBrowser ??= { since: Date.now(), building: buildAdminUi(), users: 0 })
  shared.building.catch(() => undefined) // awaited (and reported) in beforeAll
  shared.users++
  const timings: Record<string, number> = {}
  let suiteStart = 0
  let running: Running | undefined
  beforeAll(async () => {
    suiteStart = Date.now()
    shared.running ??= start(shared, medusaUrl(), timings)
    running = await shared.running
  }, 600_000)
  afterAll(async () => {
    // eslint-disable-next-line no-console
    console.log(`[${name}] ${JSON.stringify({ ...timings, suite_ms: Date.now() - suiteStart })}`)
    if (--shared.users > 0) return
    if (fileBrowser === shared) fileBrowser = undefined
    const last = await shared.running?.catch(() => undefined)
    await last?.browser.close()
    await last?.ui.close()
  })
  return {
    ui: () => running?.ui ?? fail("the admin UI is not served yet (use it inside tests)"),
    browser: () => running?.browser ?? fail("Chromium has not started yet (use it inside tests)"),
    timings,
  }
}

function fail(message: string): never {
  throw new Error(`useAdminBrowser(): ${message}`)
}

/** A page whose uncaught errors and console errors (what React's error boundaries log) land in `errors`. */
export async function openAdminPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1400 } })
  const errors: string[] = []
  page.on("pageerror", (e) => errors.push(e.message))
  page.on("console", (m) => {
    // Product thumbnails point at a made-up host.
    if (m.type() === "error" && !m.text().includes("ERR_NAME_NOT_RESOLVED")) errors.push(m.text())
  })
  return { page, errors }
}

/** Runs a test's browser steps; when one fails, saves test-artifacts/<name>-failure.png and adds the page's errors to the message. */
export async function withFailureScreenshot(page: Page, errors: string[], name: string, steps: () => Promise<void>): Promise<void> {
  try {
    await steps()
  } catch (error) {
    fs.mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-failure.png`), fullPage: true }).catch(() => undefined)
    throw new Error(`${error instanceof Error ? error.message : String(error)}\npage errors: ${errors.join(" | ") || "none"}`)
  }
}

/** Saves test-artifacts/<name>.png of the whole page. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true })
}

/** Medusa's toasts (sonner): hidden while a docs picture is taken. */
const HIDE_TOASTS = "[data-sonner-toaster] { display: none !important; }"

/**
 * With ALTAPAY_SCREENSHOTS=1 (`npm run docs:screenshots`), writes docs/images/<name>.png of `target`:
 * an element (the panel, a drawer, a widget) or the page's viewport. The docs' pictures are so taken
 * by the test that has just checked what they show, and stay current. Without it nothing is
 * written: a test run leaves the committed images (and the working tree) as they are.
 * `height`: the viewport's height for the picture (a drawer or a page is as tall as the window), put
 * back after it. Toasts still showing are left out of the picture, so they do not cover what it shows.
 */
export async function docScreenshot(target: Page | Locator, name: string, { height }: { height?: number } = {}): Promise<void> {
  if (process.env.ALTAPAY_SCREENSHOTS !== "1") return
  const page = "page" in target ? target.page() : target
  const viewport = page.viewportSize()
  if (height && viewport) await page.setViewportSize({ width: viewport.width, height })
  try {
    fs.mkdirSync(DOC_IMAGES, { recursive: true })
    await target.screenshot({ path: path.join(DOC_IMAGES, `${name}.png`), animations: "disabled", style: HIDE_TOASTS })
  } finally {
    if (height && viewport) await page.setViewportSize(viewport)
  }
}
