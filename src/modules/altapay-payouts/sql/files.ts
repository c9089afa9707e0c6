import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { FundingFileSummary, FundingLineView, Page } from "../types"

export async function listPayoutFiles(_knex: Knex, _page: Page): Promise<{ files: FundingFileSummary[]; count: number }> {
  throw new Error("not implemented yet")
}
export async function retrievePayoutFile(_knex: Knex, _id: string): Promise<FundingFileSummary | null> {
  throw new Error("not implemented yet")
}
export async function listPayoutFileLines(_knex: Knex, _fileId: string, _page: Page): Promise<{ lines: FundingLineView[]; count: number }> {
  throw new Error("not implemented yet")
}
