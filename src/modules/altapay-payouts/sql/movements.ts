import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { MoneyMovementInput } from "../types"

export async function recordMovements(_knex: Knex, _movements: MoneyMovementInput[]): Promise<number> {
  throw new Error("not implemented yet")
}
export async function latestMovementAt(_knex: Knex): Promise<Date | null> {
  throw new Error("not implemented yet")
}
