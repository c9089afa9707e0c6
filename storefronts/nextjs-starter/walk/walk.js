#!/usr/bin/env node
/**
 * Walks Medusa's official storefront (dtc-starter apps/storefront with the AltaPay kit applied) in
 * headless Chromium against a running store (`npm run demo`), as a customer would:
 *
 *   product -> cart -> checkout -> address -> delivery -> AltaPay option -> Place order
 *   -> AltaPay's hosted page -> authorize -> AltaPay posts the return to Medusa (server to server)
 *   -> the kit's landing page -> order confirmed page
 *
 * three times: the customer back first (Card), AltaPay's callback first (MobilePay: the walk asks
 * the sandbox to post the return 20 s late, with the hosted page's return_delay_ms field, so the
 * notification callback completes the cart first), and a decline followed by a second attempt on
 * a fresh page (Card). Each must end in exactly one order (counted in the admin API).
 * Prints each step's duration; exits 1 on the first thing that is not as a customer expects.
 *
 * Not part of `npm test` (the starter's own install is large): see storefronts/nextjs-starter/README.md.
 *
 *   WALK_STOREFRONT_URL   the storefront (http://localhost:8000)
 *   WALK_MEDUSA_URL       the Medusa server (http://localhost:9000)
 *   WALK_SEED_FILE        the demo's seed.json, for the publishable key (demo/.data/seed.json)
 *   WALK_ADMIN_EMAIL, WALK_ADMIN_PASSWORD   an admin login (the demo's)
 *   WALK_COUNTRY, WALK_PRODUCT              dk, coffee-dkk (the demo's seed)
 *   WALK_SCREENSHOTS      a folder for a screenshot of each confirmed order (optional)
 */
"use strict"
const fs = require("node:fs")
const path = require("node:path")
const { chromium } = require("playwright-core")

const REPO = path.resolve(__dirname, "../../..")
const env = process.env
const STOREFRONT = (env.WALK_STOREFRONT_URL || "http://localhost:8000").replace(/\/$/, "")
const MEDUSA = (env.WALK_MEDUSA_URL || "http://localhost:9000").replace(/\/$/, "")
const SEED_FILE = env.WALK_SEED_FILE || path.join(REPO, "demo/.data/seed.json")
const ADMIN = { email: env.WALK_ADMIN_EMAIL || "admin@altapay.demo", password: env.WALK_ADMIN_PASSWORD || "altapay-demo" }
const COUNTRY = env.WALK_COUNTRY || "dk"
const PRODUCT = env.WALK_PRODUCT || "coffee-dkk"
const SCREENSHOTS = env.WALK_SCREENSHOTS
const CHROMIUM = "/usr/bin/chromium"
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
const CART_COOKIE = "_medusa_cart_id"
const STEP_TIMEOUT_MS = 120_000 // the first visit of a page in `next dev` compiles it

const SCENARIOS = [
  { name: "customer first", option: "Card", terminal: "AltaPay Sandbox Test Terminal", callbackFirst: false, declineFirst: false },
  { name: "callback first", option: "MobilePay", terminal: "MobilePay Sandbox Terminal", callbackFirst: true, declineFirst: false },
  { name: "decline, then pay again", option: "Card", terminal: "AltaPay Sandbox Test Terminal", callbackFirst: false, declineFirst: true },
]

class WalkFailed extends Error {}
function expect(condition, message) {
  if (!condition) throw new WalkFailed(message)
}

/** A full-page screenshot into WALK_SCREENSHOTS, when set. */
async function screenshot(page, name) {
  if (!SCREENSHOTS) return
  fs.mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name.replace(/\W+/g, "-")}.png`), fullPage: true })
}

/** Runs `fn` as a named step and records how long it took. */
function stepper(timings) {
  return async (name, fn) => {
    const started = Date.now()
    try {
      const result = await fn()
      const ms = Date.now() - started
      timings.push({ step: name, ms })
      console.log(`  ✓ ${name.padEnd(64)} ${(ms / 1000).toFixed(1)} s`)
      return result
    } catch (error) {
      console.log(`  ✗ ${name}`)
      throw error
    }
  }
}

async function json(url, init = {}) {
  const res = await fetch(url, init)
  const body = await res.json().catch(() => ({}))
  if (!res.ok) throw new WalkFailed(`${init.method || "GET"} ${url} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`)
  return body
}

async function adminToken() {
  const { token } = await json(`${MEDUSA}/auth/user/emailpass`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })
  return token
}

async function ordersFor(email, token) {
  const { orders } = await json(`${MEDUSA}/admin/orders?q=${encodeURIComponent(email)}&fields=id,email&limit=50`, { headers: { authorization: `Bearer ${token}` } })
  return orders.filter((o) => o.email === email)
}

async function cartCompleted(cartId, publishableKey) {
  const { cart } = await json(`${MEDUSA}/store/carts/${cartId}?fields=id,completed_at`, { headers: { "x-publishable-api-key": publishableKey } })
  return Boolean(cart.completed_at)
}

async function until(what, check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new WalkFailed(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

async function cartIdOf(context) {
  const cookie = (await context.cookies(STOREFRONT)).find((c) => c.name === CART_COOKIE)
  expect(cookie, `the storefront set no ${CART_COOKIE} cookie`)
  expect(cookie.httpOnly && cookie.sameSite === "Strict", `${CART_COOKIE} is not httpOnly + SameSite=Strict as in the starter`)
  return cookie.value
}

/** The starter's checkout from the product page up to the review step, with `option` chosen. */
async function checkoutUpToReview(page, step, email, option) {
  await step("product page", async () => {
    await page.goto(`${STOREFRONT}/${COUNTRY}/products/${PRODUCT}`)
    // The page may render the button twice (the product column and a sticky bar): take the first.
    await page.getByTestId("add-product-button").first().waitFor({ timeout: STEP_TIMEOUT_MS })
    // A click before React has hydrated the button is lost (seen once in three walks): wait for the page to settle.
    await page.waitForLoadState("networkidle", { timeout: STEP_TIMEOUT_MS })
  })
  await step("add to cart", async () => {
    const add = page.getByTestId("add-product-button").first()
    await page.waitForFunction(() => !document.querySelector('[data-testid="add-product-button"]')?.hasAttribute("disabled"), null, { timeout: STEP_TIMEOUT_MS })
    await add.click()
    await page.getByTestId("nav-cart-link").filter({ hasText: "(1)" }).waitFor({ timeout: STEP_TIMEOUT_MS })
  })
  await step("cart -> checkout", async () => {
    await page.goto(`${STOREFRONT}/${COUNTRY}/cart`)
    await page.getByTestId("checkout-button").click({ timeout: STEP_TIMEOUT_MS })
    await page.waitForURL(/\/checkout\?step=address/, { timeout: STEP_TIMEOUT_MS })
  })
  await step("address", async () => {
    await page.getByTestId("shipping-first-name-input").fill("Karen", { timeout: STEP_TIMEOUT_MS })
    await page.getByTestId("shipping-last-name-input").fill("Blixen")
    await page.getByTestId("shipping-address-input").fill("Strandvejen 111")
    await page.getByTestId("shipping-postal-code-input").fill("2960")
    await page.getByTestId("shipping-city-input").fill("Rungsted")
    await page.getByTestId("shipping-country-select").selectOption(COUNTRY)
    await page.getByTestId("shipping-email-input").fill(email)
    await page.getByTestId("shipping-phone-input").fill("+4512345678")
    await page.getByTestId("submit-address-button").click()
    await page.waitForURL(/step=delivery/, { timeout: STEP_TIMEOUT_MS })
  })
  await step("delivery", async () => {
    await page.getByTestId("delivery-option-radio").first().click({ timeout: STEP_TIMEOUT_MS })
    const submit = page.getByTestId("submit-delivery-option-button")
    await page.waitForFunction(() => !document.querySelector('[data-testid="submit-delivery-option-button"]')?.hasAttribute("disabled"), null, { timeout: STEP_TIMEOUT_MS })
    await submit.click()
    await page.waitForURL(/step=payment/, { timeout: STEP_TIMEOUT_MS })
  })
  await choosePayment(page, step, option)
}

/** The payment step: the AltaPay registration shown as `option`, then "Continue to review". */
async function choosePayment(page, step, option) {
  await step(`payment: ${option}`, async () => {
    await page.getByRole("radio", { name: option, exact: true }).click({ timeout: STEP_TIMEOUT_MS })
    await page.getByTestId("submit-payment-button").click()
    await page.waitForURL(/step=review/, { timeout: STEP_TIMEOUT_MS })
    await page.getByTestId("submit-order-button").waitFor({ timeout: STEP_TIMEOUT_MS })
  })
}

/** "Place order" -> AltaPay's hosted page, on the terminal of the chosen option. */
async function placeOrder(page, step, terminal) {
  return step("Place order -> AltaPay's payment page", async () => {
    await page.getByTestId("submit-order-button").click()
    await page.waitForURL((url) => url.origin !== STOREFRONT, { timeout: STEP_TIMEOUT_MS })
    await page.locator("#authorize").waitFor({ timeout: STEP_TIMEOUT_MS })
    const text = await page.locator("body").innerText()
    expect(text.includes(terminal), `AltaPay's page is not for terminal "${terminal}":\n${text}`)
    return page.url()
  })
}

async function walk(scenario, browser, ctx) {
  console.log(`\n${scenario.name} (${scenario.option})`)
  const timings = []
  const step = stepper(timings)
  const started = Date.now()
  const email = `walk-${Date.now().toString(36)}@example.com`
  const context = await browser.newContext()
  const page = await context.newPage()
  const returns = [] // navigations to the kit's pages, with whether the cart cookie came along
  page.on("request", async (request) => {
    if (!request.isNavigationRequest() || !request.url().includes("/api/altapay/")) return
    const cookies = (await request.allHeaders().catch(() => ({}))).cookie || ""
    returns.push({ path: new URL(request.url()).pathname, cartCookie: cookies.includes(`${CART_COOKIE}=`), at: Date.now() })
  })

  try {
    await checkoutUpToReview(page, step, email, scenario.option)
    const cartId = await cartIdOf(context)
    let firstPage = await placeOrder(page, step, scenario.terminal)

    if (scenario.declineFirst) {
      await step("decline -> back at the payment step with a message", async () => {
        await page.locator("#decline").click()
        await page.waitForURL(/\/checkout\?step=payment&altapay=failed/, { timeout: STEP_TIMEOUT_MS })
        const notice = await page.getByTestId("altapay-payment-notice").innerText({ timeout: STEP_TIMEOUT_MS })
        expect(/declined or cancelled/.test(notice), `unexpected message at the payment step: ${notice}`)
        await screenshot(page, `${scenario.name} - payment step`)
      })
      await choosePayment(page, step, scenario.option)
      const secondPage = await placeOrder(page, step, scenario.terminal)
      expect(secondPage !== firstPage, "the second attempt was sent to the declined payment page again")
      const declined = await (await fetch(firstPage)).text()
      expect(/already <strong>DECLINED/.test(declined), "the first payment page is not the declined one")
      firstPage = secondPage
    }

    let completedAt
    if (scenario.callbackFirst) {
      // AltaPay's return post comes 20 s late (a sandbox test knob on its page's form); meanwhile
      // its notification callback, processed about 5 s after it arrives, completes the cart.
      await page.route(
        (url) => url.href.startsWith(new URL(firstPage).origin),
        async (route) => {
          if (route.request().method() !== "POST") return route.continue()
          until("AltaPay's callback to complete the cart", () => cartCompleted(cartId, ctx.publishableKey), 60_000).then(
            () => (completedAt = Date.now()),
            () => undefined
          )
          return route.continue({ postData: `${route.request().postData() || ""}&return_delay_ms=20000` })
        }
      )
    }

    const orderId = await step(`authorize -> back in the store -> order confirmed${scenario.callbackFirst ? " (after the callback)" : ""}`, async () => {
      await page.locator("#authorize").click()
      await page.waitForURL(/\/order\/order_[^/]+\/confirmed/, { timeout: STEP_TIMEOUT_MS })
      await page.getByTestId("order-complete-container").waitFor({ timeout: STEP_TIMEOUT_MS })
      return /\/order\/(order_[^/]+)\/confirmed/.exec(page.url())[1]
    })
    await screenshot(page, `${scenario.name} - confirmed`)
    // AltaPay's redirect to the landing page is cross-site (no Strict cookie); the landing page's own
    // navigation to /api/altapay/done is same-site (the cookie goes, and is cleared there).
    const seen = returns.map(({ path, cartCookie }) => ({ path, cartCookie }))
    const landings = seen.filter((r) => r.path === "/api/altapay/landing")
    expect(
      landings.every((r) => !r.cartCookie),
      `AltaPay's redirect to the landing page carried the SameSite=Strict cart cookie: ${JSON.stringify(seen)}`
    )
    expect(
      JSON.stringify(seen.slice(-2)) ===
        JSON.stringify([
          { path: "/api/altapay/landing", cartCookie: false },
          { path: "/api/altapay/done", cartCookie: true },
        ]),
      `expected the landing page, then /api/altapay/done with the cart cookie; saw ${JSON.stringify(seen)}`
    )
    expect(landings.length === (scenario.declineFirst ? 2 : 1), `expected ${scenario.declineFirst ? 2 : 1} landings, saw ${JSON.stringify(seen)}`)
    expect(!(await context.cookies(STOREFRONT)).some((c) => c.name === CART_COOKIE), "the cart cookie was not cleared")
    if (scenario.callbackFirst) {
      const landedAt = returns.filter((r) => r.path === "/api/altapay/landing").at(-1).at
      expect(completedAt && completedAt < landedAt, "the callback did not complete the cart before AltaPay's return brought the customer back")
    }

    await step("exactly one order (admin API)", async () => {
      if (!scenario.callbackFirst) {
        // AltaPay's callback reaches Medusa too and is processed about 5 s later: it must add nothing.
        await new Promise((r) => setTimeout(r, 7_000))
      }
      const orders = await ordersFor(email, ctx.adminToken)
      expect(orders.length === 1 && orders[0].id === orderId, `expected exactly order ${orderId} for ${email}, found ${JSON.stringify(orders)}`)
    })
    const total = Date.now() - started
    console.log(`  = ${orderId}, ${(total / 1000).toFixed(1)} s`)
    return { scenario: scenario.name, option: scenario.option, orderId, total_ms: total, steps: timings }
  } finally {
    await context.close()
  }
}

async function main() {
  expect(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing (apt-get install -y chromium)`)
  expect(fs.existsSync(SEED_FILE), `${SEED_FILE} is missing: run \`npm run demo\` first, or set WALK_SEED_FILE`)
  const { publishableKey } = JSON.parse(fs.readFileSync(SEED_FILE, "utf8"))
  const ctx = { publishableKey, adminToken: await adminToken() }
  const only = process.argv.slice(2)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
  const results = []
  try {
    for (const scenario of SCENARIOS) {
      if (only.length && !only.some((o) => scenario.name.includes(o))) continue
      results.push(await walk(scenario, browser, ctx))
    }
  } finally {
    await browser.close()
  }
  console.log(`\n${JSON.stringify(results.map(({ scenario, orderId, total_ms }) => ({ scenario, orderId, total_ms })))}`)
}

main().catch((error) => {
  console.error(`\nwalk failed: ${error instanceof WalkFailed ? error.message : error && error.stack ? error.stack : error}`)
  process.exit(1)
})
