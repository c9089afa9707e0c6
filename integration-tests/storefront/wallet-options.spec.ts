/**
 * Issue 42 in a real browser: the kit's payment step offers Apple Pay only where the device offers
 * it. The kit's own code (storefronts/nextjs-starter/src/lib/util/altapay-methods.ts, bundled as the
 * starter bundles it) runs in headless Chromium, which has no ApplePaySession: the Apple Pay option
 * is left out and the other wallets and app methods stay. With Safari's ApplePaySession answering
 * canMakePayments() true (as on an iPhone), Apple Pay is offered too. No Medusa here: the store's
 * options are the registrations a region offers.
 */
import path from "node:path"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Browser } from "playwright-core"
import { browserSpecCanRun, CHROMIUM, CHROMIUM_ARGS } from "../setup/chromium"

jest.setTimeout(120_000)

const KIT = path.resolve(__dirname, "../../storefronts/nextjs-starter/src/lib/util/altapay-methods.ts")
const OFFERED = ["pp_altapay_card", "pp_altapay_applepay", "pp_altapay_googlepay", "pp_altapay_mobilepay", "pp_altapay_vipps", "pp_altapay_swish"]

/** The payment step's list, rendered in the browser by the kit's functions once the page has loaded (as its effect does). */
const PAGE_SCRIPT = `
import { altapayApplePayOffered, altapayMethodOf, altapayOfferedOptions } from ${JSON.stringify(KIT)}
const options = ${JSON.stringify(OFFERED)}.map((id) => ({ id }))
window.addEventListener("DOMContentLoaded", () => {
  const list = document.getElementById("options")
  for (const option of altapayOfferedOptions(options, altapayApplePayOffered())) {
    const item = document.createElement("li")
    item.dataset.provider = option.id
    item.dataset.method = altapayMethodOf(option.id)
    list.appendChild(item)
  }
  list.dataset.ready = "true"
})
`

if (browserSpecCanRun("wallet options in the kit's payment step")) {
  let server: Server
  let url = ""
  let browser: Browser

  beforeAll(async () => {
    // The kit's file bundled for the browser as the starter's build does (esbuild, which Medusa's toolchain brings).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require("esbuild") as typeof import("esbuild")
    const bundle = await esbuild.build({ stdin: { contents: PAGE_SCRIPT, resolveDir: __dirname, loader: "ts" }, bundle: true, format: "iife", write: false, platform: "browser" })
    const script = bundle.outputFiles[0].text
    server = createServer((req, res) => {
      if (req.url === "/kit.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(script)
      res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><html><head><script src="/kit.js"></script></head><body><ul id="options"></ul></body></html>`)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout`
    const { chromium } = require("playwright-core") as typeof import("playwright-core")
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
  })
  afterAll(async () => {
    await browser?.close()
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  })

  async function shownOptions(applePayDevice: boolean): Promise<string[]> {
    const context = await browser.newContext()
    try {
      if (applePayDevice) await context.addInitScript(() => Object.assign(window, { ApplePaySession: { canMakePayments: () => true } }))
      const page = await context.newPage()
      await page.goto(url)
      await page.waitForSelector("#options[data-ready=true]", { state: "attached" })
      return await page.$$eval("#options li", (items) => items.map((item) => (item as HTMLElement).dataset.provider ?? ""))
    } finally {
      await context.close()
    }
  }

  it("Chromium has no Apple Pay: the Apple Pay option is not shown, Google Pay, MobilePay, Vipps and Swish are", async () => {
    expect(await shownOptions(false)).toEqual(OFFERED.filter((id) => id !== "pp_altapay_applepay"))
  })

  it("a device whose ApplePaySession can make payments is offered Apple Pay too", async () => {
    expect(await shownOptions(true)).toEqual(OFFERED)
  })
}
