#!/usr/bin/env node
"use strict"
// Runs the go-live checks (`npx altapay-check` in the store's folder; bin/load-cli.js loads them).
// Exit code: 0 no problem, 1 a problem, 2 the command could not run.
require("./load-cli")
  .loadCli("check", "altapay-check", 2)
  .main(process.argv.slice(2))
  .catch((error) => {
    console.error(error)
    process.exit(2)
  })
