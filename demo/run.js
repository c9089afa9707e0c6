#!/usr/bin/env node
// Entry of `npm run demo`: loads the TypeScript demo (demo/main.ts) through demo/register-ts.js.
"use strict"
require("./register-ts")
require("./main.ts")
  .main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(error)
    process.exit(1)
  })
