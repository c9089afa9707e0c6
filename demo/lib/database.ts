/**
 * What the demo database has been through, so a reused database is neither migrated nor seeded
 * again without reason: migrations re-run when Medusa, the plugin's build or the store's config
 * changed; the seed script itself never seeds twice (it leaves a marker on the store).
 */
import crypto from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import type { DemoSeed } from "../src/scripts/seed"
import { DEMO_DIR, REPO_ROOT } from "./settings"

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()
}

/** Changes when anything db:migrate acts on may have changed. */
export function migrationFingerprint(): string {
  const medusaVersion = (require("@medusajs/medusa/package.json") as { version: string }).version
  const built = path.join(REPO_ROOT, ".medusa/server/src")
  const hash = crypto.createHash("sha256")
  hash.update(medusaVersion)
  for (const folder of ["migrations", "links", "modules"]) hash.update(`${folder}:${filesUnder(path.join(built, folder)).join(",")}`)
  hash.update(fs.readFileSync(path.join(DEMO_DIR, "medusa-config.ts")))
  return hash.digest("hex")
}

const markerFile = (dataDir: string) => path.join(dataDir, "migrated.txt")

export function isMigrated(dataDir: string): boolean {
  return fs.existsSync(markerFile(dataDir)) && fs.readFileSync(markerFile(dataDir), "utf8") === migrationFingerprint()
}

export function markMigrated(dataDir: string): void {
  fs.writeFileSync(markerFile(dataDir), migrationFingerprint())
}

export const seedFile = (dataDir: string) => path.join(dataDir, "seed.json")

export function readSeed(dataDir: string): DemoSeed | undefined {
  try {
    return JSON.parse(fs.readFileSync(seedFile(dataDir), "utf8")) as DemoSeed
  } catch {
    return undefined
  }
}
