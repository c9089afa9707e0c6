"use strict"
// What the package's commands share: an installed package runs its compiled code (.medusa/server,
// built before packing); a checkout runs the TypeScript sources, compiled in memory by the dev
// dependency @swc/core (the demo's loader), so a command works right after `npm ci` and never
// runs a stale build.
const fs = require("node:fs")
const path = require("node:path")

const root = path.join(__dirname, "..")

/** The CLI module of src/<folder>/cli.ts (or its build); exits with `failCode` when neither can load. */
function loadCli(folder, name, failCode) {
  const sources = path.join(root, "src", folder, "cli.ts")
  const compiled = path.join(root, ".medusa", "server", "src", folder, "cli.js")
  if (!fs.existsSync(sources)) return require(compiled)
  try {
    require(path.join(root, "demo", "register-ts.js"))
  } catch (error) {
    if (error.code !== "MODULE_NOT_FOUND") throw error
    if (fs.existsSync(compiled)) return require(compiled)
    console.error(`Run \`npm ci\` first: ${name} runs from its TypeScript sources with @swc/core, which is not installed.`)
    process.exit(failCode)
  }
  return require(sources)
}

module.exports = { loadCli }
