/**
 * `node --require` hook for scripts kept in this repository that run inside a scratch store
 * (`medusa exec <repo>/demo/src/scripts/seed.ts`): with ALTAPAY_STORE_DIR set, `@medusajs/*`
 * imported from outside the store resolves from the store, so the script works with the store's
 * Medusa version and its one copy of each Medusa package, not the repository's.
 */
"use strict"
const Module = require("node:module")
const path = require("node:path")

const storeDir = process.env.ALTAPAY_STORE_DIR && path.resolve(process.env.ALTAPAY_STORE_DIR)
const resolveFilename = Module._resolveFilename

if (storeDir) {
  Module._resolveFilename = function resolveMedusaFromStore(request, parent, isMain, options) {
    const fromOutside = parent && parent.filename && !parent.filename.startsWith(storeDir + path.sep)
    if (fromOutside && request.startsWith("@medusajs/")) return resolveFilename.call(this, request, parent, isMain, { paths: [storeDir] })
    return resolveFilename.call(this, request, parent, isMain, options)
  }
}
