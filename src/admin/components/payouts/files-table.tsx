/** The funding files AltaPay paid out, newest first, 20 a page: totals, and how many lines matched Medusa. */
import { Badge, Table, Text, Tooltip } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { useAdminText } from "../../i18n/use-admin-text"
import { formatMinor } from "../../lib/format"
import { FILES_PAGE_SIZE, listPayoutFiles, payoutsQueryKey, type FundingFileSummary } from "../../lib/payouts-api"
import { FileLink, LoadError, Notice, Pager } from "./common"

export function PayoutFilesTable() {
  const [offset, setOffset] = useState(0)
  const { t } = useAdminText()
  const { data, error, isLoading } = useQuery({
    queryKey: [...payoutsQueryKey, "files", offset],
    queryFn: () => listPayoutFiles(offset),
    placeholderData: keepPreviousData,
  })

  if (isLoading) return <Notice>{t("payouts.loadingFiles")}</Notice>
  if (error) return <LoadError error={error} />
  if (!data || data.count === 0) {
    return <Notice testId="payout-files-empty">{t("payouts.noFiles")}</Notice>
  }
  return (
    <div data-testid="payout-files">
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t("payouts.fundingDate")}</Table.HeaderCell>
            <Table.HeaderCell>{t("payouts.file")}</Table.HeaderCell>
            <Table.HeaderCell>{t("payouts.currency")}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t("payouts.gross")}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t("payouts.fees")}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t("payouts.net")}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t("payouts.paidOut")}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t("payouts.matched")}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t("payouts.unmatched")}</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {data.files.map((file) => (
            <Table.Row key={file.id} data-testid="payout-file-row" data-file-id={file.id}>
              <Table.Cell>{file.fundingDate}</Table.Cell>
              <Table.Cell>
                <FileLink fileId={file.id} testId="payout-file-link">
                  {file.filename}
                </FileLink>
              </Table.Cell>
              <Table.Cell>{file.currency}</Table.Cell>
              <Table.Cell className="text-right">{formatMinor(t, file.grossMinor, file.currency)}</Table.Cell>
              <Table.Cell className="text-right">{formatMinor(t, file.feesMinor, file.currency)}</Table.Cell>
              <Table.Cell className="text-right" data-testid="payout-file-net">
                {formatMinor(t, file.netMinor, file.currency)}
              </Table.Cell>
              <Table.Cell className="text-right">
                <PaidOut file={file} />
              </Table.Cell>
              <Table.Cell className="text-right" data-testid="payout-file-matched">
                {file.matchedCount}
              </Table.Cell>
              <Table.Cell className="text-right" data-testid="payout-file-unmatched">
                {file.unmatchedCount > 0 ? (
                  <Badge size="2xsmall" color="orange">
                    {file.unmatchedCount}
                  </Badge>
                ) : (
                  0
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      <Pager testId="payout-files-pager" count={data.count} pageSize={FILES_PAGE_SIZE} offset={offset} onOffset={setOffset} />
    </div>
  )
}

/** The funding's Amount as AltaPay listed it, flagged when the lines do not add up to it. */
export function PaidOut({ file }: { file: FundingFileSummary }) {
  const { t } = useAdminText()
  const amount = formatMinor(t, file.amountMinor, file.currency)
  if (file.totalsAgree) return <Text size="small">{amount}</Text>
  return (
    <Tooltip content={t("payouts.totalsDifferDetail", { net: formatMinor(t, file.netMinor, file.currency), amount })}>
      <span className="inline-flex items-center gap-x-1" data-testid="payout-file-totals-differ">
        <Badge size="2xsmall" color="red">
          {t("payouts.totalsDiffer")}
        </Badge>
        <Text size="small">{amount}</Text>
      </span>
    </Tooltip>
  )
}
