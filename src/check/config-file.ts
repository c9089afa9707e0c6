/**
 * Finds and loads a store's medusa-config as the `medusa` command does: the file's export (its
 * `default` when it has one), evaluated with the store's environment. A TypeScript config needs a
 * TypeScript loader, which `medusa` gets from the store's ts-node: this file falls back on the same.
 */
import { existsSync } from "node:fs"
import path from "node:path"
import type { ConfigModule } from "@medusajs/framework/types"

/** Where a store keeps its config, in the order `medusa` looks (a built store: .medusa/server). */
export const CONFIG_CANDIDATES = ["medusa-config.ts", "medusa-config.js", path.join(".medusa", "server", "medusa-config.js")]

export class ConfigFileError extends Error {}

/** The config file: `file` when given (relative to `cwd`), else the first candidate in `cwd`. */
export function findConfigFile(cwd: string, file?: string): string {
  if (file !== undefined) {
    const resolved = path.resolve(cwd, file)
    if (!existsSync(resolved)) throw new ConfigFileError(`${resolved} does not exist.`)
    return resolved
  }
  const found = CONFIG_CANDIDATES.map((candidate) => path.join(cwd, candidate)).find((candidate) => existsSync(candidate))
  if (!found) throw new ConfigFileError(`No medusa-config in ${cwd} (looked for ${CONFIG_CANDIDATES.join(", ")}): run in the store's folder or give --config <file>.`)
  return found
}

/**
 * Loads the config. A .ts file that does not load as it is (no TypeScript loader registered) is
 * tried once more with the store's ts-node, as `medusa` registers it.
 */
export function loadConfigFile(file: string): ConfigModule {
  let loaded: unknown
  try {
    loaded = requireFresh(file)
  } catch (error) {
    if (!file.endsWith(".ts")) throw new ConfigFileError(`${file} could not be loaded: ${messageOf(error)}`)
    registerTsNode(path.dirname(file), error)
    try {
      loaded = requireFresh(file)
    } catch (again) {
      throw new ConfigFileError(`${file} could not be loaded: ${messageOf(again)}`)
    }
  }
  const config = loaded && typeof loaded === "object" && "default" in loaded && loaded.default ? loaded.default : loaded
  if (!config || typeof config !== "object") throw new ConfigFileError(`${file} exports no configuration object.`)
  return config as ConfigModule
}

function requireFresh(file: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(file)
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

function registerTsNode(storeDir: string, cause: unknown): void {
  let tsNode: string
  try {
    tsNode = require.resolve("ts-node", { paths: [storeDir, process.cwd()] })
  } catch {
    throw new ConfigFileError(
      `medusa-config.ts could not be loaded (${messageOf(cause)}) and ts-node, which the \`medusa\` command loads it with, is not installed: install it in the store (npm install --save-dev ts-node), or run \`medusa build\` and give --config .medusa/server/medusa-config.js.`
    )
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  ;(require(tsNode) as { register(options: object): void }).register({ transpileOnly: true })
}
