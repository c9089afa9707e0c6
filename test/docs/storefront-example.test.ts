/**
 * docs/storefront.md's "complete Next.js-style example" as a reader copies it (issue 41): its code
 * blocks type-check together against this package's storefront helper, and its landing route sends
 * each outcome where the customer belongs. A paid customer is never sent back to the checkout (an
 * unsigned return has no `{order_id}`; it is paid all the same), nor one whose payment is under
 * review: either would invite paying twice.
 */
import { readFileSync } from "node:fs"
import path from "node:path"
import ts from "typescript"
import { REPO_ROOT } from "../helpers/doc-pages"
import { runTs } from "../helpers/run-ts"

const PAGE = readFileSync(path.join(REPO_ROOT, "docs/storefront.md"), "utf8")
/** The page's ```ts / ```tsx blocks whose first line names their file: `// app/…/route.ts`. */
const files = Object.fromEntries([...PAGE.matchAll(/^```tsx?\n\/\/ ((?:lib|app)\/[\w/.-]+\.tsx?)[^\n]*\n[\s\S]*?^```$/gm)].map((m) => [m[1], m[0].replace(/^```tsx?\n|```$/g, "")]))
const LANDING = "app/api/altapay/landing/route.ts"

test("the example is the three files a storefront copies", () => {
  expect(Object.keys(files).sort()).toEqual(["app/api/altapay/landing/route.ts", "app/checkout/altapay-payment.tsx", "lib/medusa.ts"])
})

test("the example type-checks against medusa-payment-altapay/storefront", () => {
  const root = path.join(REPO_ROOT, ".storefront-example")
  const virtual = Object.fromEntries(Object.entries(files).map(([file, text]) => [path.join(root, file), text]))
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
    types: ["node", "react"],
    skipLibCheck: true,
    baseUrl: root,
    paths: { "@/*": ["./*"], "medusa-payment-altapay/storefront": [path.join(REPO_ROOT, "src/storefront/index.ts")] },
  }
  const host = ts.createCompilerHost(options)
  const [readFile, fileExists] = [host.readFile.bind(host), host.fileExists.bind(host)]
  host.readFile = (file) => virtual[file] ?? readFile(file)
  host.fileExists = (file) => file in virtual || fileExists(file)
  host.directoryExists = (dir) => dir === root || dir.startsWith(`${root}${path.sep}`) || ts.sys.directoryExists(dir)
  const program = ts.createProgram(Object.keys(virtual), options, host)
  const problems = ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? path.relative(root, d.file.fileName) : ""}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`)
  expect(problems).toEqual([])
}, 60_000)

describe("the example's landing route", () => {
  const { GET } = runTs(files[LANDING]) as { GET: (request: Request) => Promise<Response> }
  const land = async (query: string) => {
    const response = await GET(new Request(`https://shop.example/api/altapay/landing?${query}`))
    const html = await response.text()
    return { response, html, next: /<a href="([^"]*)">/.exec(html)?.[1], refresh: /http-equiv="refresh"/.test(html) }
  }

  it("takes a paid customer whose return AltaPay signed to the order", async () => {
    const { next, html } = await land("outcome=paid&cart_id=cart_01A&order_id=order_01B&message=")
    expect(next).toBe("/order/order_01B/confirmed")
    expect(html).toContain("your order is placed")
  })

  it("thanks a paid customer whose return was unsigned (no order id), and never sends them to pay again", async () => {
    const { next, html } = await land("outcome=paid&cart_id=&order_id=&message=")
    expect(next).toBe("/")
    expect(html).toContain("your payment was received and your order is placed")
    expect(html).not.toMatch(/checkout|failed/)
  })

  it("tells a customer whose payment is under review that it is being checked, not that it failed", async () => {
    const { next, html } = await land("outcome=review&cart_id=&order_id=&message=")
    expect(next).toBe("/")
    expect(html).toContain("we are checking your payment")
    expect(html).not.toMatch(/checkout|failed/)
  })

  it.each([
    ["declined", "/checkout?payment=failed", "not completed"],
    ["unconfirmed", "/checkout?payment=unconfirmed", "could not confirm"],
  ])("sends a %s customer back to the checkout", async (outcome, expected, says) => {
    const { next, html } = await land(`outcome=${outcome}&cart_id=&order_id=&message=`)
    expect(next).toBe(expected)
    expect(html).toContain(says)
  })

  it("shows AltaPay's message escaped and waits for a click; moves on by itself without one", async () => {
    const withMessage = await land(`outcome=declined&message=${encodeURIComponent("<b>Card expired</b>")}`)
    expect(withMessage.html).toContain("&#60;b&#62;Card expired&#60;/b&#62;")
    expect(withMessage.html).not.toContain("<b>")
    expect(withMessage.refresh).toBe(false)
    expect((await land("outcome=declined")).refresh).toBe(true)
  })

  it("takes no order id but Medusa's, and is never cached", async () => {
    const { next, response } = await land(`outcome=paid&order_id=${encodeURIComponent('order_1"><script>x</script>')}`)
    expect(next).toBe("/")
    expect(response.headers.get("cache-control")).toBe("no-store")
  })
})
