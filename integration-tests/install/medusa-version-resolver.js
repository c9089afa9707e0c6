/**
 * jest resolver for running this repository's specs against another Medusa version: with
 * ALTAPAY_TEST_MEDUSA_DIR set to a folder that has that version installed, every `@medusajs/*`
 * import made from outside that folder (our sources, our specs) resolves from it. Imports made
 * by the installed Medusa packages themselves resolve as usual, from where they are.
 */
"use strict"
const path = require("node:path")

const medusaDir = process.env.ALTAPAY_TEST_MEDUSA_DIR ? path.resolve(process.env.ALTAPAY_TEST_MEDUSA_DIR) : undefined
// Packages that version's own packages require without declaring them (scripts/test-medusa-version.js).
const extraModules = process.env.ALTAPAY_TEST_EXTRA_MODULES ? path.resolve(process.env.ALTAPAY_TEST_EXTRA_MODULES) : undefined

module.exports = (request, options) => {
  if (medusaDir && request.startsWith("@medusajs/") && !options.basedir.startsWith(medusaDir + path.sep)) {
    return options.defaultResolver(request, { ...options, basedir: medusaDir })
  }
  try {
    return options.defaultResolver(request, options)
  } catch (error) {
    const fromMedusa = medusaDir && options.basedir.startsWith(medusaDir + path.sep)
    if (!extraModules || !fromMedusa || request.startsWith(".") || path.isAbsolute(request)) throw error
    return options.defaultResolver(request, { ...options, basedir: extraModules })
  }
}
