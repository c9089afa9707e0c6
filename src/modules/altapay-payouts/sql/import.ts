import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { ImportFundingFileInput, ImportFundingFileResult } from "../types"

export async function hasFundingFile(_knex: Knex, _account: string, _filename: string): Promise<boolean> {
  throw new Error("not implemented yet")
}
export async function importFundingFile(_knex: Knex, _input: ImportFundingFileInput): Promise<ImportFundingFileResult> {
  throw new Error("not implemented yet")
}
