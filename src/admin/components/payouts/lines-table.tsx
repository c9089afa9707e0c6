/** A funding file's lines, 50 a page: amounts, fees, and the Medusa order each one pays out (or none). */
import { Badge, Table, Text } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { useAdminText } from "../../i18n/use-admin-text"
import { formatMinor } from "../../lib/format"
import { LINES_PAGE_SIZE, listPayoutLines, payoutsQueryKey, type FundingLineView } from "../../lib/payouts-api"
import { LoadError, Notice, OrderLink, Pager } from "./common"

/** Line types that carry a customer's money and so should belong to a Medusa capture or refund. */
const MONEY_TYPES = new Set(["payment", "refund", "payment_rejected", "refund_rejected"])

export function PayoutLinesTable({ fileId, fileCurrency }: { fileId: string; fileCurrency: string }) {
  const [offset, setOffset] = useState(0)
  const { t } = useAdminText()
  const { data, error, isLoading } = useQuery({
    queryKey: [...payoutsQueryKey, "lines", fileId, offset],
    queryFn: () => listPayoutLines(fileId, offset),
    placeholderData: keepPreviousData,
  })
  if (isLoading) return <Notice>{t("payouts.lines.loading")}</Notice>
  if (error) return <LoadError error={error} />
  if (!data || data.count === 0) return <Notice testId="payout-lines-empty">{t("payouts.lines.none")}</Notice>
  return (
    <div data-testid="payout-lines">
      <div className="overflow-x-auto">
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>#</Table.HeaderCell>
              <Table.HeaderCell>{t("payouts.lines.type")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payouts.lines.date")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payouts.lines.reconciliation")}</Table.HeaderCell>
              <Table.HeaderCell className="text-right">{t("payouts.lines.transaction")}</Table.HeaderCell>
              <Table.HeaderCell className="text-right">{t("payouts.lines.settlement")}</Table.HeaderCell>
              <Table.HeaderCell className="text-right">{t("payouts.fees")}</Table.HeaderCell>
              <Table.HeaderCell className="text-right">{t("payouts.net")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payouts.lines.order")}</Table.HeaderCell>
              <Table.HeaderCell>{t("payouts.matched")}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.lines.map((line) => (
              <LineRow key={line.id} line={line} fileCurrency={fileCurrency} />
            ))}
          </Table.Body>
        </Table>
      </div>
      <Pager testId="payout-lines-pager" count={data.count} pageSize={LINES_PAGE_SIZE} offset={offset} onOffset={setOffset} />
    </div>
  )
}

function LineRow({ line, fileCurrency }: { line: FundingLineView; fileCurrency: string }) {
  const { t } = useAdminText()
  const settlementCurrency = line.settlementCurrency ?? fileCurrency
  if (line.issue) {
    return (
      <Table.Row data-testid="payout-line" data-line-id={line.id}>
        <Table.Cell>{line.lineNumber}</Table.Cell>
        {/* Table.Cell's props do not take colSpan. */}
        <td colSpan={9} className="py-2 pr-6">
          <Text size="small" className="text-ui-fg-error" data-testid="payout-line-issue">
            {t("payouts.lines.unreadable", { issue: line.issue })}
          </Text>
          {line.cells && (
            <Text size="xsmall" className="text-ui-fg-subtle break-all">
              {Object.entries(line.cells)
                .map(([column, value]) => `${column}: ${value}`)
                .join(" · ")}
            </Text>
          )}
        </td>
      </Table.Row>
    )
  }
  return (
    <Table.Row data-testid="payout-line" data-line-id={line.id}>
      <Table.Cell>{line.lineNumber}</Table.Cell>
      <Table.Cell data-testid="payout-line-type">
        {line.type ?? "–"}
        {!line.knownType && line.type ? (
          <Badge size="2xsmall" color="grey" className="ml-1">
            {t("payouts.lines.notDocumented")}
          </Badge>
        ) : null}
      </Table.Cell>
      <Table.Cell>{line.date ?? "–"}</Table.Cell>
      <Table.Cell className="break-all" data-testid="payout-line-reconciliation">
        {line.reconciliationIdentifier ?? "–"}
      </Table.Cell>
      <Table.Cell className="text-right whitespace-nowrap">{formatMinor(t, line.transactionAmountMinor, line.transactionCurrency)}</Table.Cell>
      <Table.Cell className="text-right whitespace-nowrap">{formatMinor(t, line.settlementAmountMinor, line.settlementCurrency)}</Table.Cell>
      <Table.Cell className="text-right whitespace-nowrap">{formatMinor(t, line.feesMinor, settlementCurrency)}</Table.Cell>
      <Table.Cell className="text-right whitespace-nowrap">{formatMinor(t, line.netMinor, settlementCurrency)}</Table.Cell>
      <Table.Cell data-testid="payout-line-order">
        <LineOrder line={line} />
      </Table.Cell>
      <Table.Cell>
        <span data-testid="payout-line-match">{line.match ? t(`payouts.lines.matchedBy.${line.match.method}`) : "–"}</span>
        {line.match && amountDiffers(line) && (
          <Badge size="2xsmall" color="orange" className="ml-1" data-testid="payout-line-medusa-amount">
            {t("payouts.lines.medusaAmount", { amount: formatMinor(t, line.match.amountMinor, line.match.currency) })}
          </Badge>
        )}
      </Table.Cell>
    </Table.Row>
  )
}

/** The line's amount is not the capture's or refund's it was tied to (refund lines are negative, Medusa's refunds positive). */
function amountDiffers({ match, transactionAmountMinor, transactionCurrency }: FundingLineView): boolean {
  if (!match || transactionAmountMinor === null) return false
  return Math.abs(transactionAmountMinor) !== match.amountMinor || (transactionCurrency ?? "").toUpperCase() !== match.currency.toUpperCase()
}

function LineOrder({ line }: { line: FundingLineView }) {
  const { t } = useAdminText()
  if (line.match?.orderId) return <OrderLink orderId={line.match.orderId} testId="payout-line-order-link" />
  if (line.match) return <Text size="small">{t("payouts.lines.paymentWithoutOrder", { id: line.match.paymentId })}</Text>
  if (line.type && MONEY_TYPES.has(line.type))
    return (
      <Text size="small" className="text-ui-fg-subtle">
        {t("payouts.lines.notInMedusa")}
      </Text>
    )
  return <>–</>
}
