#!/usr/bin/env node
/**
 * `npm run bench`: compiles the TypeScript in bench/ and src/ on the fly with @swc/core (no build
 * step) and runs bench/main.ts. Re-executes node with --expose-gc when global.gc is missing, since
 * the memory figure needs a real garbage collection. `--sandbox-child` runs the sandbox process;
 * `--profile-child` the refunds bench/profile.ts profiles under `node --cpu-prof`; `--order-lines` only
 * counts products sent as two order lines (bench/order-line-splits.ts), without the sandbox.
 */
"use strict"
const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const path = require("node:path")

const child = process.argv.includes("--sandbox-child")
const profileChild = process.argv.indexOf("--profile-child")

if (!child && profileChild < 0 && typeof global.gc !== "function") {
  const result = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, __filename, ...process.argv.slice(2)], { stdio: "inherit" })
  process.exit(result.status ?? 1)
}

const { transformSync } = require("@swc/core")
const nodeModules = `${path.sep}node_modules${path.sep}`

require.extensions[".ts"] = function compileTypeScript(module, filename) {
  if (filename.includes(nodeModules)) throw new Error(`bench/run.js does not compile TypeScript inside node_modules: ${filename}`)
  const { code } = transformSync(fs.readFileSync(filename, "utf8"), {
    filename,
    sourceMaps: "inline",
    module: { type: "commonjs" },
    jsc: {
      target: "es2022",
      parser: { syntax: "typescript", tsx: false, decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
    },
  })
  module._compile(code, filename)
}

if (child) {
  require("./lib/sandbox-process.ts").runSandboxChild()
} else if (process.argv.includes("--order-lines")) {
  require("./order-line-splits.ts").orderLineSplits()
} else if (profileChild >= 0) {
  const [payments, url, window] = process.argv.slice(profileChild + 1)
  require("./profile.ts")
    .runProfileChild(payments, url, window)
    .then(
      () => process.exit(0),
      (error) => {
        console.error(error)
        process.exit(1)
      }
    )
} else {
  require("./main.ts")
    .main()
    .then(
      () => process.exit(0),
      (error) => {
        console.error(error)
        process.exit(1)
      }
    )
}
