/**
 * Medusa loads a plugin's modules by a bare specifier through the package's exports
 * (`medusa-payment-altapay/.medusa/server/src/modules/<name>`, a folder): without an entry naming
 * its index.js, the generic `./.medusa/server/src/*` maps it to a `<name>.js` that does not exist,
 * and `medusa db:migrate` / `medusa build` stop in the merchant's store.
 */
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> }

test("every module of src/modules resolves to its built index.js through the package's exports", () => {
  const modules = readdirSync(path.join(ROOT, "src/modules"), { withFileTypes: true }).filter((e) => e.isDirectory())
  expect(modules.length).toBeGreaterThan(0)
  for (const { name } of modules) {
    expect([name, pkg.exports[`./.medusa/server/src/modules/${name}`]]).toEqual([name, `./.medusa/server/src/modules/${name}/index.js`])
  }
})
