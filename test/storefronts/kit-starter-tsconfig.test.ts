/**
 * The kit type-checks under the real starter's compiler options (issue 41): dtc-starter's
 * apps/storefront/tsconfig.json targets ES5, where spreading a string (`[...text]`) is TS2802.
 * `next build` ignores type errors, so only a merchant's `tsc` (or CI) would see one. The options
 * are test data (fixtures/dtc-starter-tsconfig.json, its source named in the file), so CI needs no
 * network and no starter install.
 *
 * What is not here is the starter's own code and its dependencies (next, server-only): imports of
 * them are unresolved (`any`), and only those may be, except the few whose types the kit's code
 * leans on (declared below with this repository's @medusajs/js-sdk and @medusajs/types); every
 * other diagnostic fails the test.
 */
import fs from "node:fs"
import path from "node:path"
import ts from "typescript"

const KIT = path.resolve(__dirname, "../../storefronts/nextjs-starter")
const STARTER = JSON.parse(fs.readFileSync(path.join(__dirname, "fixtures/dtc-starter-tsconfig.json"), "utf8")) as {
  source: string
  compilerOptions: Record<string, unknown>
}

/**
 * The starter modules whose types the kit leans on, declared as the starter's code makes them
 * (dtc-starter 9233262): src/lib/config.ts `export const sdk = new Medusa(…)`; src/lib/data/cart.ts
 * `initiatePaymentSession` (the js-sdk's answer) and `placeOrder` (the cart; it redirects on an order).
 */
const STARTER_DECLARATIONS: Record<string, string> = {
  [path.join(KIT, "starter-config.d.ts")]: `declare module "@lib/config" {
  import Medusa from "@medusajs/js-sdk"
  export const sdk: Medusa
}
`,
  [path.join(KIT, "src/lib/data/cart.d.ts")]: `import { HttpTypes } from "@medusajs/types"
export declare function initiatePaymentSession(cart: HttpTypes.StoreCart, data: HttpTypes.StoreInitializePaymentSession): Promise<HttpTypes.StorePaymentCollectionResponse>
export declare function placeOrder(cartId?: string): Promise<HttpTypes.StoreCart>
`,
}

/** Modules of the starter (its files and packages) that the kit imports and this repository does not have. */
const STARTER_ONLY =
  /^(@lib\/(constants|data\/(cookies|customer))|@modules\/(checkout\/components\/error-message|common\/components\/ui)|\.\.\/error-message|\.\/cookies|next(\/.*)?|server-only)$/

function kitFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return kitFiles(full)
    return /\.tsx?$/.test(entry.name) ? [full] : []
  })
}

function diagnostics(): string[] {
  const { options, errors } = ts.convertCompilerOptionsFromJson(STARTER.compilerOptions, KIT)
  if (errors.length) throw new Error(ts.formatDiagnostics(errors, ts.createCompilerHost({})))
  // The starter installs @types/node and @types/react; this repository's are the ones at hand.
  const compilerOptions = { ...options, noEmit: true, types: ["node", "react"] }
  const host = ts.createCompilerHost(compilerOptions)
  const readFile = host.readFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  host.readFile = (file) => STARTER_DECLARATIONS[file] ?? readFile(file)
  host.fileExists = (file) => file in STARTER_DECLARATIONS || fileExists(file)
  const program = ts.createProgram([...kitFiles(path.join(KIT, "src")), ...Object.keys(STARTER_DECLARATIONS)], compilerOptions, host)
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !(d.code === 2307 && STARTER_ONLY.test(/'([^']+)'/.exec(ts.flattenDiagnosticMessageText(d.messageText, "\n"))?.[1] ?? "")))
    .map((d) => {
      const where = d.file ? `${path.relative(KIT, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ""
      return `${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`
    })
}

test("the compiler options are dtc-starter's, which target ES5", () => {
  expect(STARTER.source).toMatch(/medusajs\/dtc-starter.*apps\/storefront\/tsconfig\.json/)
  expect(STARTER.compilerOptions).toMatchObject({ target: "es5", strict: true, isolatedModules: true })
})

test("the kit type-checks with dtc-starter's tsconfig (no string spread under ES5, no other error)", () => {
  expect(diagnostics()).toEqual([])
}, 60_000)
