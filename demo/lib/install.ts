/**
 * Makes demo/ look like a store that has the plugin installed, without a second npm install:
 * demo/node_modules/medusa-payment-altapay is a symlink to the repository (the package's exports
 * point into its .medusa/server build). Medusa itself resolves from the repository's
 * node_modules, one folder up.
 */
import fs from "node:fs"
import path from "node:path"
import { DEMO_DIR, REPO_ROOT } from "./settings"

function symlink(target: string, link: string): void {
  let current: string | undefined
  try {
    current = fs.readlinkSync(link)
  } catch {
    current = undefined
  }
  if (current === target) return
  fs.rmSync(link, { recursive: true, force: true })
  fs.mkdirSync(path.dirname(link), { recursive: true })
  fs.symlinkSync(target, link, "dir")
}

function resolvesFrom(from: string, name: string): string | undefined {
  try {
    return path.dirname(require.resolve(`${name}/package.json`, { paths: [from] }))
  } catch {
    return undefined
  }
}

/**
 * Links the plugin into demo/node_modules. Also links Medusa's default plugin
 * @medusajs/draft-order when npm nested it under @medusajs/medusa (it does here, over an
 * @medusajs/ui version conflict): Medusa resolves plugins from the store's folder.
 */
export function installPluginIntoDemo(): void {
  const modules = path.join(DEMO_DIR, "node_modules")
  symlink(REPO_ROOT, path.join(modules, "medusa-payment-altapay"))
  const draftOrder = "@medusajs/draft-order"
  const medusaDir = resolvesFrom(REPO_ROOT, "@medusajs/medusa")
  const nested = medusaDir && resolvesFrom(medusaDir, draftOrder)
  const hoisted = resolvesFrom(REPO_ROOT, draftOrder)
  if (nested && !hoisted) symlink(nested, path.join(modules, draftOrder))
}
