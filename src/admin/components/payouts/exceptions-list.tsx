/**
 * What finance must look at: captures and refunds no payout holds after the cut-off, lines tied to
 * nothing in Medusa or to a different amount, rejected and unreadable lines, files whose totals
 * disagree. Filter by kind (none chosen: all), 50 a page, the same selection as CSV.
 */
import { Badge, Button, Table, Text } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { useAdminText } from "../../i18n/use-admin-text"
import { formatMinor, unfundedCutoffText } from "../../lib/format"
import {
  EXCEPTION_KINDS as KINDS,
  EXCEPTIONS_PAGE_SIZE,
  listPayoutExceptions,
  payoutExceptionsExportPath,
  payoutsQueryKey,
  type ExceptionKind,
  type PayoutException,
} from "../../lib/payouts-api"
import { CsvLink, FileLink, LoadError, Notice, OrderLink, Pager } from "./common"

export function PayoutExceptionsList() {
  const [kinds, setKinds] = useState<ExceptionKind[]>([])
  const [offset, setOffset] = useState(0)
  const { t } = useAdminText()
  const { data, error, isLoading } = useQuery({
    queryKey: [...payoutsQueryKey, "exceptions", kinds, offset],
    queryFn: () => listPayoutExceptions(kinds, offset),
    placeholderData: keepPreviousData,
  })
  const toggle = (kind: ExceptionKind) => {
    setKinds((current) => (current.includes(kind) ? current.filter((k) => k !== kind) : KINDS.filter((k) => k === kind || current.includes(k))))
    setOffset(0)
  }

  return (
    <div data-testid="payout-exceptions">
      <div className="flex flex-wrap items-center justify-between gap-2 px-6 py-4">
        <div className="flex flex-wrap gap-2" data-testid="payout-exception-filter">
          {KINDS.map((kind) => (
            <Button key={kind} size="small" variant={kinds.includes(kind) ? "primary" : "secondary"} onClick={() => toggle(kind)} data-testid={`payout-exception-kind-${kind}`}>
              {t(`payouts.exceptions.kinds.${kind}`)}
            </Button>
          ))}
        </div>
        <CsvLink path={payoutExceptionsExportPath(kinds)} filename="altapay-payout-exceptions.csv" testId="payout-exceptions-csv" />
      </div>
      {data && (
        <div className="px-6 pb-2">
          <Text size="small" className="text-ui-fg-subtle" data-testid="payout-exceptions-cutoff">
            {t("payouts.exceptions.cutoff", { cutoff: unfundedCutoffText(t, data.unfundedAfterDays) })}
          </Text>
        </div>
      )}
      {isLoading && <Notice>{t("payouts.exceptions.loading")}</Notice>}
      {error && <LoadError error={error} />}
      {data && data.count === 0 && <Notice testId="payout-exceptions-empty">{t(kinds.length ? "payouts.exceptions.noneOfKinds" : "payouts.exceptions.none")}</Notice>}
      {data && data.count > 0 && (
        <>
          <div className="overflow-x-auto">
            <Table>
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>{t("payouts.exceptions.kind")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payouts.exceptions.what")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payouts.exceptions.date")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payouts.exceptions.payout")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("payouts.exceptions.order")}</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">{t("payouts.exceptions.inMedusa")}</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">{t("payouts.exceptions.atAltaPay")}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {data.exceptions.map((exception, index) => (
                  <ExceptionRow key={`${exception.kind}:${exception.lineId ?? exception.medusaId ?? exception.fileId ?? index}`} exception={exception} />
                ))}
              </Table.Body>
            </Table>
          </div>
          <Pager testId="payout-exceptions-pager" count={data.count} pageSize={EXCEPTIONS_PAGE_SIZE} offset={offset} onOffset={setOffset} />
        </>
      )}
    </div>
  )
}

function ExceptionRow({ exception: e }: { exception: PayoutException }) {
  const { t } = useAdminText()
  return (
    <Table.Row data-testid="payout-exception" data-kind={e.kind}>
      <Table.Cell>
        <Badge size="2xsmall" color={e.kind === "unfunded" || e.kind === "rejected" || e.kind === "chargeback" ? "red" : "orange"}>
          {t(`payouts.exceptions.kinds.${e.kind}`)}
        </Badge>
      </Table.Cell>
      <Table.Cell className="max-w-md whitespace-normal" data-testid="payout-exception-message">
        {e.message}
      </Table.Cell>
      <Table.Cell className="whitespace-nowrap">{e.date ? e.date.slice(0, 10) : "–"}</Table.Cell>
      <Table.Cell>
        {e.fileId ? (
          <FileLink fileId={e.fileId}>
            {e.lineNumber !== null ? t("payouts.exceptions.fileLine", { file: e.filename ?? e.fileId, line: e.lineNumber }) : (e.filename ?? e.fileId)}
          </FileLink>
        ) : (
          "–"
        )}
      </Table.Cell>
      <Table.Cell data-testid="payout-exception-order">
        {e.orderId ? <OrderLink orderId={e.orderId} /> : e.paymentId ? t("payouts.exceptions.payment", { id: e.paymentId }) : "–"}
      </Table.Cell>
      <Table.Cell className="text-right whitespace-nowrap">{formatMinor(t, e.medusaAmountMinor, e.medusaCurrency ?? e.currency)}</Table.Cell>
      <Table.Cell className="text-right whitespace-nowrap">{formatMinor(t, e.altapayAmountMinor, e.currency)}</Table.Cell>
    </Table.Row>
  )
}
