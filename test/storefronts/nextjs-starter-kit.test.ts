/**
 * The Next.js starter kit ships twice, as files to copy and as one patch: they must be the same
 * kit, and the store side (demo, example config) must send customers on to the kit's landing page.
 * Applying the patch to the real starter is storefronts/nextjs-starter/walk's job (not in CI).
 */
import fs from "node:fs"
import path from "node:path"

const REPO = path.resolve(__dirname, "../..")
const KIT = path.join(REPO, "storefronts/nextjs-starter")
const PREFIX = "apps/storefront/"
const EDITED = [
  "src/lib/constants.tsx",
  "src/modules/checkout/components/payment-button/index.tsx",
  "src/modules/checkout/components/payment/index.tsx",
  "src/modules/account/components/account-nav/index.tsx",
]
/** The one kit file that completes a cart: paying with a saved card has no AltaPay page, so no return to complete it. */
const COMPLETES_A_CART = "src/lib/data/altapay.ts"
/** The kit's landing page: the plugin's successUrl and failureUrl (its return endpoint 303s there). */
const LANDING_URL = "/api/altapay/landing?outcome={outcome}&cart_id={cart_id}&order_id={order_id}"

interface FilePatch {
  path: string
  isNew: boolean
  added: string[]
}

function parsePatch(text: string): FilePatch[] {
  return text
    .split(/^(?=diff --git )/m)
    .filter((chunk) => chunk.startsWith("diff --git "))
    .map((chunk) => {
      const target = /^\+\+\+ b\/(.+)$/m.exec(chunk)?.[1] ?? ""
      const body = chunk.slice(chunk.search(/^@@/m))
      return {
        path: target,
        isNew: /^new file mode/m.test(chunk),
        added: body
          .split("\n")
          .filter((line) => line.startsWith("+"))
          .map((line) => line.slice(1)),
      }
    })
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(full) : [full]
  })
}

const patch = parsePatch(fs.readFileSync(path.join(KIT, "altapay.patch"), "utf8"))
const kitFiles = filesUnder(path.join(KIT, "src")).map((file) => path.relative(KIT, file).split(path.sep).join("/"))

describe("the Next.js starter kit", () => {
  it("patches apps/storefront only: the kit's new files and the four starter files it edits", () => {
    expect(patch.every((p) => p.path.startsWith(PREFIX))).toBe(true)
    expect(
      patch
        .filter((p) => p.isNew)
        .map((p) => p.path.slice(PREFIX.length))
        .sort()
    ).toEqual([...kitFiles].sort())
    expect(
      patch
        .filter((p) => !p.isNew)
        .map((p) => p.path.slice(PREFIX.length))
        .sort()
    ).toEqual([...EDITED].sort())
  })

  it.each(kitFiles)("the patch adds %s exactly as the kit ships it", (file) => {
    const added = patch.find((p) => p.path === `${PREFIX}${file}`)!
    expect(added.added.join("\n")).toBe(fs.readFileSync(path.join(KIT, file), "utf8").replace(/\n$/, ""))
  })

  it("has the landing page the store is configured with, and the same-site step after it", () => {
    expect(kitFiles).toContain("src/app/api/altapay/landing/route.ts")
    expect(kitFiles).toContain("src/app/api/altapay/done/route.ts")
  })

  it("completes a cart only to pay with a saved card, through the starter's placeOrder; the plugin completes every other", () => {
    const completing = kitFiles.filter((file) => /cart\.complete\(|placeOrder\(/.test(fs.readFileSync(path.join(KIT, file), "utf8")))
    expect(completing).toEqual([COMPLETES_A_CART])
    const source = fs.readFileSync(path.join(KIT, COMPLETES_A_CART), "utf8")
    expect(source).not.toMatch(/cart\.complete\(/)
    expect(source.match(/placeOrder\(/g)).toHaveLength(1)
    // The call sits in the saved-card payment: the function that starts a session with saved_card_id.
    const savedCardPayment = /export async function altapaySavedCardPayment[\s\S]*?\n}\n/.exec(source)?.[0] ?? ""
    expect(savedCardPayment).toMatch(/saved_card_id/)
    expect(savedCardPayment).toMatch(/placeOrder\(/)
  })

  it.each(["demo/medusa-config.ts", "medusa-config.example.ts", "README.md", "docs/merchant.md", "docs/storefront.md"])(
    "%s sends customers on to the kit's landing page",
    (file) => {
      const text = fs.readFileSync(path.join(REPO, file), "utf8")
      expect(text).toContain(LANDING_URL)
      expect(text).not.toMatch(/api\/altapay\/(success|failure)\/\{cart_id\}|checkout\/altapay\/(success|failure|return)/)
    }
  )
})
