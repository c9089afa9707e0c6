/**
 * Builds Medusa's admin dashboard with this plugin's admin extensions (src/admin) into one static
 * folder, as `medusa build` does for a store. Run in a child process (Vite is ESM and heavy; jest's
 * module sandbox is no place for it): node build-admin-ui.js <outDir> <adminSourceDir>
 * The working directory receives Vite's scratch files (.medusa/client).
 */
const path = require("node:path")

const [outDir, source] = process.argv.slice(2)
if (!outDir || !source) {
  console.error("usage: node build-admin-ui.js <outDir> <adminSourceDir>")
  process.exit(2)
}
const repoRoot = path.resolve(__dirname, "../../..")
const { build } = require(require.resolve("@medusajs/admin-bundler", { paths: [repoRoot] }))

const started = Date.now()
build({
  disable: false,
  path: "/app",
  outDir: path.resolve(outDir),
  // Same origin as the dashboard: the test serves both behind one port.
  backendUrl: "/",
  sources: [path.resolve(source)],
  plugins: [],
}).then(
  () => console.log(`admin UI built in ${Date.now() - started} ms`),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
