/**
 * What the admin browser specs share: the admin UI built while the app boots and served in front
 * of the test app, one headless Chromium per spec file, and pages whose errors are collected and
 * which leave a screenshot in test-artifacts/ when a step fails.
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
}

/**
 * Call at the spec's top level: the build (a child process) starts now, overlapping the app's
 * boot. Call what it returns inside the runner's testSuite: it serves the build in front of
 * `medusaUrl` and launches Chromium before the tests, and closes both after them. `timings` gets
 * the boot and build times.
 */
export function adminBrowser(medusaUrl: () => string, timings: Record<string, number>): () => AdminBrowser {
  const fileStart = Date.now()
  const building: Promise<BuiltAdminUi> = buildAdminUi()
  building.catch(() => undefined) // awaited (and reported) in beforeAll
  return () => {
    let ui: ServedAdminUi | undefined
    let browser: Browser | undefined
    beforeAll(async () => {
      timings.boot_ms = Date.now() - fileStart
      const built = await building
      timings[built.cached ? "admin_ui_cached_ms" : "admin_ui_build_ms"] = built.ms
      ui = await serveAdminUi(built.dir, medusaUrl())
      const { chromium } = require("playwright-core") as typeof import("playwright-core")
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
    }, 600_000)
    afterAll(async () => {
      await browser?.close()
      await ui?.close()
    })
    return {
      ui: () => ui ?? fail("the admin UI is not served yet (use it inside tests)"),
      browser: () => browser ?? fail("Chromium has not started yet (use it inside tests)"),
    }
  }
}

function fail(message: string): never {
  throw new Error(`adminBrowser(): ${message}`)
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
