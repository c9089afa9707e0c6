/** One funding file's facts: when and what AltaPay paid out, its totals and how its lines matched. */
import { Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import { useAdminText } from "../../i18n/use-admin-text"
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
  const { t, language } = useAdminText()
  return (
    <div className="grid grid-cols-2 gap-4 px-6 py-4 md:grid-cols-4" data-testid="payout-file-summary">
      <Fact label={t("payouts.fundingDate")} testId="payout-file-funding-date">
        {file.fundingDate}
      </Fact>
      <Fact label={t("payouts.currency")}>{file.currency}</Fact>
      <Fact label={t("payouts.gross")} testId="payout-file-gross">
        {formatMinor(t, file.grossMinor, file.currency)}
      </Fact>
      <Fact label={t("payouts.summary.feesVat")} testId="payout-file-fees">
        {formatMinor(t, file.feesMinor, file.currency)} <span data-testid="payout-file-fee-vat">({formatMinor(t, file.feeVatMinor, file.currency)})</span>
      </Fact>
      <Fact label={t("payouts.summary.netLines")} testId="payout-file-net">
        {formatMinor(t, file.netMinor, file.currency)}
      </Fact>
      <Fact label={t("payouts.summary.paidOut")}>
        <PaidOut file={file} />
      </Fact>
      <Fact label={t("payouts.summary.lines")} testId="payout-file-lines-count">
        {file.unreadableLineCount > 0 ? t("payouts.summary.linesUnreadable", { lines: file.lineCount, count: file.unreadableLineCount }) : file.lineCount}
      </Fact>
      <Fact label={t("payouts.summary.matchedNotInMedusa")} testId="payout-file-counts">
        {file.matchedCount} / {file.unmatchedCount}
      </Fact>
      <Fact label={t("payouts.summary.shops")}>{file.shops.length ? file.shops.join(", ") : "–"}</Fact>
      <Fact label={t("payouts.summary.acquirer")}>{file.acquirer ?? "–"}</Fact>
      <Fact label={t("payouts.summary.contract")}>{file.contractIdentifier ?? "–"}</Fact>
      <Fact label={t("payouts.summary.imported")}>{t("payouts.summary.importedBy", { date: formatDate(file.importedAt, language), provider: file.providerId })}</Fact>
    </div>
  )
}
