/**
 * Headless Chromium for the browser specs: Debian's /usr/bin/chromium driven by playwright-core
 * (Playwright's own browser download cannot work here). A spec skips itself, with the reason,
 * when either is missing (in CI it fails instead: ./system-programs.ts) or ALTAPAY_BROWSER_TESTS=0.
 */
import { missingProgram, unavailableSpec } from "./system-programs"

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
  return missingProgram({ command: CHROMIUM, install: "sudo apt-get install -y chromium" })
}

/**
 * For a browser spec's top level: true when Chromium can run here; otherwise registers one test
 * that says why (skipped locally, failing in CI unless ALTAPAY_BROWSER_TESTS=0) and returns false.
 */
export function browserSpecCanRun(title: string): boolean {
  const unavailable = browserUnavailable()
  if (!unavailable) return true
  unavailableSpec(title, unavailable, process.env.ALTAPAY_BROWSER_TESTS === "0")
  return false
}
