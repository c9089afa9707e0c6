/**
 * Headless Chromium for the browser specs: Debian's /usr/bin/chromium driven by playwright-core
 * (Playwright's own browser download cannot work here). A spec skips itself, with the reason,
 * when either is missing or ALTAPAY_BROWSER_TESTS=0.
 */
import fs from "node:fs"

export const CHROMIUM = "/usr/bin/chromium"
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]

/** Why browser specs cannot run here, or undefined when they can. */
export function browserUnavailable(): string | undefined {
  if (process.env.ALTAPAY_BROWSER_TESTS === "0") return "ALTAPAY_BROWSER_TESTS=0"
  try {
    require.resolve("playwright-core")
  } catch {
    return "playwright-core is not installed (a devDependency: run npm ci)"
  }
  if (!fs.existsSync(CHROMIUM)) return `${CHROMIUM} is missing (apt-get install -y chromium)`
  return undefined
}

/**
 * For a browser spec's top level: true when Chromium can run here; otherwise registers one skipped
 * test that says why (so the run shows it) and returns false.
 */
export function browserSpecCanRun(title: string): boolean {
  const unavailable = browserUnavailable()
  if (!unavailable) return true
  describe(title, () => {
    // eslint-disable-next-line no-console
    console.warn(`[${title}] skipped: ${unavailable}`)
    it.skip(`skipped: ${unavailable}`, () => undefined)
  })
  return false
}
