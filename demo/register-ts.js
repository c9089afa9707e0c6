/**
 * Loads TypeScript with @swc/core (already a dev dependency) for the demo driver and for the
 * Medusa CLI children (passed to them as NODE_OPTIONS=--require <this file>). A Medusa store
 * normally has ts-node for this; the demo needs no install of its own, so it brings this hook.
 * Type-checking is `npm run typecheck`'s job, not this hook's.
 */
"use strict"
const fs = require("node:fs")
const swc = require("@swc/core")

if (!require.extensions[".ts"]) {
  require.extensions[".ts"] = function loadTypeScript(module, filename) {
    const { code } = swc.transformSync(fs.readFileSync(filename, "utf8"), {
      filename,
      sourceMaps: "inline",
      module: { type: "commonjs" },
      jsc: {
        parser: { syntax: "typescript", decorators: true },
        target: "es2022",
        transform: { legacyDecorator: true, decoratorMetadata: true },
      },
    })
    module._compile(code, filename)
  }
}
