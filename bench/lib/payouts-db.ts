/**
 * The payouts module's tables on an embedded Postgres, for the payouts bench: a knex on a fresh
 * database and the module's own migrations run as Medusa would run them (their SQL, in order),
 * so the bench calls the module's real SQL (src/modules/altapay-payouts/sql) without booting Medusa.
 */
import { readdirSync } from "node:fs"
import path from "node:path"
import { knex, type Knex } from "@medusajs/framework/mikro-orm/knex"

const MIGRATIONS_DIR = path.join(__dirname, "..", "..", "src", "modules", "altapay-payouts", "migrations")
const DATABASE = "altapay_payouts_bench"
export const PAYOUT_TABLES = ["altapay_funding_file", "altapay_funding_line", "altapay_money_movement"] as const

export interface PayoutsDb {
  knex: Knex
  port: number
  /** On-disk size of each payouts table with its indexes, bytes. */
  tableBytes(): Promise<Record<string, number>>
  stop(): Promise<void>
}

interface MigrationClass {
  new (driver: never, config: never): { up(): Promise<void> | void; getQueries(): unknown[] }
}

/** Every migration of the module, oldest first, as the SQL it adds. */
async function migrationSql(): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^Migration\d+\.ts$/.test(f))
    .sort()
  const out: string[] = []
  for (const file of files) {
    const exported = require(path.join(MIGRATIONS_DIR, file)) as Record<string, MigrationClass>
    for (const Migration of Object.values(exported)) {
      // MikroORM's Migration only collects addSql() calls in up(); driver and config are not read.
      const migration = new Migration(undefined as never, undefined as never)
      await migration.up()
      out.push(...migration.getQueries().map(String))
    }
  }
  return out
}

export async function startPayoutsDb(log: (m: string) => void): Promise<PayoutsDb> {
  const { startPostgres } = require("../../tools/test-store/postgres") as typeof import("../../tools/test-store/postgres")
  const postgres = await startPostgres()
  const connection = { host: postgres.host, port: postgres.port, user: postgres.user, password: postgres.password }
  const admin = knex({ client: "pg", connection: { ...connection, database: "postgres" } })
  try {
    await admin.raw(`create database "${DATABASE}"`)
  } finally {
    await admin.destroy()
  }
  const db = knex({ client: "pg", connection: { ...connection, database: DATABASE }, pool: { min: 0, max: 4 } })
  const sql = await migrationSql()
  for (const statement of sql) await db.raw(statement)
  log(`payouts: embedded Postgres on port ${postgres.port}, ${sql.length} migration statements run`)
  return {
    knex: db,
    port: postgres.port,
    tableBytes: async () => {
      const out: Record<string, number> = {}
      for (const table of PAYOUT_TABLES) {
        const { rows } = (await db.raw("select pg_total_relation_size(?::regclass) as bytes", [table])) as { rows: Array<{ bytes: string }> }
        out[table] = Number(rows[0].bytes)
      }
      return out
    },
    stop: async () => {
      await db.destroy()
      await postgres.stop()
    },
  }
}
