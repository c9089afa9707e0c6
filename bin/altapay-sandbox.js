#!/usr/bin/env node
"use strict"
// Runs the sandbox CLI (bin/load-cli.js: the build when installed, the sources in a checkout).
require("./load-cli")
  .loadCli("sandbox", "the sandbox", 1)
  .main(process.argv.slice(2))
  .catch(() => process.exit(1))
