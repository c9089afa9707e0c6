/**
 * What a funding file's lines add up to, read as AltaPay's own client reads them: every amount
 * signed as the file writes it, an empty cell 0, and fees (negative when charged: AltaPay/sdk-csharp
 * Funding42221.csv has -0.25 and -0.86 on a 63.75 payment) added to the settlement amounts. The sum
 * is what the funding's Amount should be. Pure, so the import and the unit tests share it.
 */
import type { FundingFileEntry, FundingLine } from "../../altapay"

/** A line's fees and their VAT, signed as in the file (a fee charged is negative). */
export const lineFeesMinor = (line: FundingLine): number => line.fixedFeeMinor + line.fixedFeeVatMinor + line.rateBasedFeeMinor + line.rateBasedFeeVatMinor

/** What a line pays out: its settlement amount plus its fees. */
export const lineNetMinor = (line: FundingLine): number => line.settlementAmountMinor + lineFeesMinor(line)

/** Running totals of a file's entries, exact (bigint) however many lines it has. */
export class FundingFileTotals {
  gross = 0n
  fees = 0n
  lines = 0
  unreadable = 0

  add(entry: FundingFileEntry): void {
    this.lines += 1
    if (!entry.ok) {
      this.unreadable += 1
      return
    }
    this.gross += BigInt(entry.line.settlementAmountMinor)
    this.fees += BigInt(lineFeesMinor(entry.line))
  }

  /** Settlement amounts plus fees: what the lines pay out. */
  get net(): bigint {
    return this.gross + this.fees
  }
}
