/**
 * jest resolver for running this repository's specs against another Medusa version: with
 * ALTAPAY_TEST_MEDUSA_DIR set to a folder that has that version installed, every `@medusajs/*`
 * import made from outside that folder (our sources, our specs) resolves from it. Imports made
 * by the installed Medusa packages themselves resolve as usual, from where they are.
 */
"use strict"
const path = require("node:path")

const medusaDir = process.env.ALTAPAY_TEST_MEDUSA_DIR ? path.resolve(process.env.ALTAPAY_TEST_MEDUSA_DIR) : undefined

module.exports = (request, options) => {
  if (medusaDir && request.startsWith("@medusajs/") && !options.basedir.startsWith(medusaDir + path.sep)) {
    return options.defaultResolver(request, { ...options, basedir: medusaDir })
  }
  return options.defaultResolver(request, options)
}
