import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { ExceptionQuery, PayoutException } from "../types"

export async function listPayoutExceptions(_knex: Knex, _query: ExceptionQuery): Promise<{ exceptions: PayoutException[]; count: number }> {
  throw new Error("not implemented yet")
}
