/**
 * The payouts module: AltaPay funding files and their lines, Medusa's captures and refunds on
 * AltaPay payments, and how they match. The generated CRUD methods (MedusaService) stay; the
 * import, the matching and the reports are SQL (./sql), since a file has thousands of lines.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { MedusaService } from "@medusajs/framework/utils"
import { FundingFile, FundingLine, MoneyMovement, PayoutCursor } from "./models"
import { importFundingFile, storedFundingFile } from "./sql/import"
import { markMovementsSynced, movementsSyncedThrough, recordMovements } from "./sql/movements"
import { matchLines } from "./sql/match"
import { listPayoutFiles, listPayoutFileLines, retrievePayoutFile } from "./sql/files"
import { listPayoutExceptions } from "./sql/exceptions"
import { payoutsForPayments } from "./sql/payment-payouts"
import type {
  ExceptionQuery,
  FundingFileSummary,
  FundingLineView,
  ImportFundingFileInput,
  ImportFundingFileResult,
  MatchResult,
  MoneyMovementInput,
  MovementPayout,
  Page,
  PayoutException,
  StoredFundingFile,
} from "./types"

interface EntityManagerWithKnex {
  getKnex(): Knex
}

class AltaPayPayoutsService extends MedusaService({ FundingFile, FundingLine, MoneyMovement, PayoutCursor }) {
  private readonly manager_: EntityManagerWithKnex

  constructor(container: { manager: EntityManagerWithKnex }, ...rest: unknown[]) {
    super(container, ...rest)
    this.manager_ = container.manager
  }

  private get knex(): Knex {
    return this.manager_.getKnex()
  }

  /** This account's stored file of that name, if any (the job need not download a file stored for good). */
  storedFundingFile(account: string, filename: string): Promise<StoredFundingFile | undefined> {
    return storedFundingFile(this.knex, account, filename)
  }

  /** Stores a funding file and its lines in one transaction; a file stored before (by any server) is left alone. */
  importFundingFile(input: ImportFundingFileInput): Promise<ImportFundingFileResult> {
    return importFundingFile(this.knex, input)
  }

  /** Adds captures and refunds not stored yet (by Medusa id); returns the Medusa ids this call added. */
  recordMovements(movements: MoneyMovementInput[]): Promise<string[]> {
    return recordMovements(this.knex, movements)
  }

  /** Up to when Medusa's captures and refunds were read for all these registrations; null when one was never read. */
  movementsSyncedThrough(providerIds: string[]): Promise<Date | null> {
    return movementsSyncedThrough(this.knex, providerIds)
  }

  /** Records that everything created before `at` was read for these registrations. */
  markMovementsSynced(providerIds: string[], at: Date): Promise<void> {
    return markMovementsSynced(this.knex, providerIds, at)
  }

  /** Ties lines still unmatched to captures and refunds: by reconciliation identifier, then by AltaPay payment and amount. */
  matchLines(): Promise<MatchResult> {
    return matchLines(this.knex)
  }

  listPayoutFiles(page: Page): Promise<{ files: FundingFileSummary[]; count: number }> {
    return listPayoutFiles(this.knex, page)
  }

  retrievePayoutFile(id: string): Promise<FundingFileSummary | null> {
    return retrievePayoutFile(this.knex, id)
  }

  listPayoutFileLines(fileId: string, page: Page): Promise<{ lines: FundingLineView[]; count: number }> {
    return listPayoutFileLines(this.knex, fileId, page)
  }

  listPayoutExceptions(query: ExceptionQuery): Promise<{ exceptions: PayoutException[]; count: number }> {
    return listPayoutExceptions(this.knex, query)
  }

  /** For each Medusa payment id: its captures and refunds and the payout lines each went into. */
  payoutsForPayments(paymentIds: string[]): Promise<Record<string, MovementPayout[]>> {
    return payoutsForPayments(this.knex, paymentIds)
  }
}

export default AltaPayPayoutsService
