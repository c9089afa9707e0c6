/** One funding file's facts: when and what AltaPay paid out, its totals and how its lines matched. */
import { Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import { formatDate, formatMinor } from "../../lib/format"
import type { FundingFileSummary } from "../../lib/payouts-api"
import { PaidOut } from "./files-table"

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex flex-col gap-y-0.5">
      <Text size="xsmall" className="text-ui-fg-subtle">
        {label}
      </Text>
      <Text size="small" leading="compact" data-testid={testId}>
        {children}
      </Text>
    </div>
  )
}

export function PayoutFileSummary({ file }: { file: FundingFileSummary }) {
  return (
    <div className="grid grid-cols-2 gap-4 px-6 py-4 md:grid-cols-4" data-testid="payout-file-summary">
      <Fact label="Funding date" testId="payout-file-funding-date">
        {file.fundingDate}
      </Fact>
      <Fact label="Currency">{file.currency}</Fact>
      <Fact label="Gross" testId="payout-file-gross">
        {formatMinor(file.grossMinor, file.currency)}
      </Fact>
      <Fact label="Fees (of which VAT)" testId="payout-file-fees">
        {formatMinor(file.feesMinor, file.currency)} <span data-testid="payout-file-fee-vat">({formatMinor(file.feeVatMinor, file.currency)})</span>
      </Fact>
      <Fact label="Net (lines)" testId="payout-file-net">
        {formatMinor(file.netMinor, file.currency)}
      </Fact>
      <Fact label="Paid out (AltaPay)">
        <PaidOut file={file} />
      </Fact>
      <Fact label="Lines" testId="payout-file-lines-count">
        {file.lineCount}
        {file.unreadableLineCount > 0 ? `, ${file.unreadableLineCount} unreadable` : ""}
      </Fact>
      <Fact label="Matched / not in Medusa" testId="payout-file-counts">
        {file.matchedCount} / {file.unmatchedCount}
      </Fact>
      <Fact label="Shops">{file.shops.length ? file.shops.join(", ") : "–"}</Fact>
      <Fact label="Acquirer">{file.acquirer ?? "–"}</Fact>
      <Fact label="Contract">{file.contractIdentifier ?? "–"}</Fact>
      <Fact label="Imported">
        {formatDate(file.importedAt)} by {file.providerId}
      </Fact>
    </div>
  )
}
