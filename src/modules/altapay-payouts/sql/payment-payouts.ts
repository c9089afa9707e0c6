import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { MovementPayout } from "../types"

export async function payoutsForPayments(_knex: Knex, _paymentIds: string[]): Promise<Record<string, MovementPayout[]>> {
  throw new Error("not implemented yet")
}
