/**
 * `medusa plugin:build` in the repository root (-> .medusa/server, what the package's exports
 * point at), skipped when the build is newer than every source file.
 */
import fs from "node:fs"
import path from "node:path"
import { REPO_ROOT } from "./settings"

const BUILD_PROBE = path.join(REPO_ROOT, ".medusa/server/src/providers/altapay/index.js")
const SOURCES = ["src", "package.json", "tsconfig.json"]

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  // Files only: the admin build touches src/admin itself (a temporary file) on every build.
  let newest = 0
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)))
  return newest
}

/** True when .medusa/server exists and no source changed since it was built. */
export function pluginBuildIsFresh(): boolean {
  const built = fs.statSync(BUILD_PROBE, { throwIfNoEntry: false })
  if (!built) return false
  return SOURCES.every((source) => newestMtime(path.join(REPO_ROOT, source)) < built.mtimeMs)
}
