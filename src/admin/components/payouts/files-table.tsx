/** The funding files AltaPay paid out, newest first, 20 a page: totals, and how many lines matched Medusa. */
import { Badge, Table, Text, Tooltip } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { formatMinor } from "../../lib/format"
import { FILES_PAGE_SIZE, listPayoutFiles, payoutsQueryKey, type FundingFileSummary } from "../../lib/payouts-api"
import { FileLink, LoadError, Notice, Pager } from "./common"

export function PayoutFilesTable() {
  const [offset, setOffset] = useState(0)
  const { data, error, isLoading } = useQuery({
    queryKey: [...payoutsQueryKey, "files", offset],
    queryFn: () => listPayoutFiles(offset),
    placeholderData: keepPreviousData,
  })

  if (isLoading) return <Notice>Loading payouts…</Notice>
  if (error) return <LoadError error={error} />
  if (!data || data.count === 0) {
    return (
      <Notice testId="payout-files-empty">No payouts imported yet: the import runs every 60 minutes (or as the store sets payouts.intervalMinutes), or press Import now.</Notice>
    )
  }
  return (
    <div data-testid="payout-files">
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>Funding date</Table.HeaderCell>
            <Table.HeaderCell>File</Table.HeaderCell>
            <Table.HeaderCell>Currency</Table.HeaderCell>
            <Table.HeaderCell className="text-right">Gross</Table.HeaderCell>
            <Table.HeaderCell className="text-right">Fees</Table.HeaderCell>
            <Table.HeaderCell className="text-right">Net</Table.HeaderCell>
            <Table.HeaderCell className="text-right">Paid out</Table.HeaderCell>
            <Table.HeaderCell className="text-right">Matched</Table.HeaderCell>
            <Table.HeaderCell className="text-right">Unmatched</Table.HeaderCell>
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
              <Table.Cell className="text-right">{formatMinor(file.grossMinor, file.currency)}</Table.Cell>
              <Table.Cell className="text-right">{formatMinor(file.feesMinor, file.currency)}</Table.Cell>
              <Table.Cell className="text-right" data-testid="payout-file-net">
                {formatMinor(file.netMinor, file.currency)}
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
  const amount = formatMinor(file.amountMinor, file.currency)
  if (file.totalsAgree) return <Text size="small">{amount}</Text>
  return (
    <Tooltip
      content={`The lines add up to ${formatMinor(file.netMinor, file.currency)}, not the ${amount} AltaPay paid out: a line may be missing from the download, or a fee not listed.`}
    >
      <span className="inline-flex items-center gap-x-1" data-testid="payout-file-totals-differ">
        <Badge size="2xsmall" color="red">
          Totals differ
        </Badge>
        <Text size="small">{amount}</Text>
      </span>
    </Tooltip>
  )
}
