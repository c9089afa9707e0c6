#!/usr/bin/env node
"use strict"
// Runs the go-live checks (`npx altapay-check` in the store's folder). An installed package runs
// its compiled code (.medusa/server); a checkout runs the TypeScript sources with @swc/core, as
// bin/altapay-sandbox.js does. Exit code: 0 no problem, 1 a problem, 2 the command could not run.
const fs = require("node:fs")
const path = require("node:path")

const root = path.join(__dirname, "..")
const sources = path.join(root, "src", "check", "cli.ts")
const compiled = path.join(root, ".medusa", "server", "src", "check", "cli.js")

function loadCli() {
  if (fs.existsSync(sources)) {
    try {
      require(path.join(root, "demo", "register-ts.js"))
    } catch (error) {
      if (error.code !== "MODULE_NOT_FOUND") throw error
      if (fs.existsSync(compiled)) return require(compiled)
      console.error("Run `npm ci` first: altapay-check runs from its TypeScript sources with @swc/core, which is not installed.")
      process.exit(2)
    }
    return require(sources)
  }
  return require(compiled)
}

loadCli()
  .main(process.argv.slice(2))
  .catch((error) => {
    console.error(error)
    process.exit(2)
  })
