#!/usr/bin/env node
"use strict"
// Runs the sandbox CLI. An installed package runs its compiled code (.medusa/server, built before
// packing). A checkout runs the TypeScript sources, compiled in memory by the dev dependency
// @swc/core (the demo's loader), so `npx altapay-sandbox` works right after `npm ci` and never
// runs a stale build.
const fs = require("node:fs")
const path = require("node:path")

const root = path.join(__dirname, "..")
const sources = path.join(root, "src", "sandbox", "cli.ts")
const compiled = path.join(root, ".medusa", "server", "src", "sandbox", "cli.js")

function loadCli() {
  if (fs.existsSync(sources)) {
    try {
      require(path.join(root, "demo", "register-ts.js"))
    } catch (error) {
      if (error.code !== "MODULE_NOT_FOUND") throw error
      if (fs.existsSync(compiled)) return require(compiled)
      console.error("Run `npm ci` first: the sandbox runs from its TypeScript sources with @swc/core, which is not installed.")
      process.exit(1)
    }
    return require(sources)
  }
  return require(compiled)
}

loadCli()
  .main(process.argv.slice(2))
  .catch(() => process.exit(1))
