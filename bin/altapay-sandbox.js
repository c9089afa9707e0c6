#!/usr/bin/env node
"use strict"
// Runs the compiled sandbox CLI; the TypeScript sources are compiled by `npm run build`.
const fs = require("node:fs")
const path = require("node:path")

const cli = path.join(__dirname, "..", ".medusa", "server", "src", "sandbox", "cli.js")
if (!fs.existsSync(cli)) {
  console.error("Run `npm run build` first: " + path.relative(process.cwd(), cli) + " is missing.")
  process.exit(1)
}
require(cli)
  .main(process.argv.slice(2))
  .catch(() => process.exit(1))
