/**
 * On the order page's AltaPay panel: what the plugin said to AltaPay about this payment and what
 * AltaPay answered (issue 43), newest first, folded until the operator opens it. When the
 * registration keeps no log, one line says how to turn it on.
 */
import { Badge, Button, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { useAdminText } from "../i18n/use-admin-text"
import { formatDate } from "../lib/format"
import { getRequestLog, requestLogQueryKey, type AdminRequestLogEntry } from "../lib/request-log-api"

export function AltaPayRequestLog({ paymentId }: { paymentId: string }) {
  const { t } = useAdminText()
  const [open, setOpen] = useState(false)
  const { data } = useQuery({ queryKey: requestLogQueryKey(paymentId), queryFn: () => getRequestLog(paymentId) })
  if (!data) return null
  const entries = [...data.entries].reverse()
  return (
    <div className="px-6 py-3" data-testid="altapay-request-log" data-enabled={data.enabled}>
      <div className="flex items-center justify-between">
        <Text size="small" leading="compact" weight="plus">
          {t("requestLog.title")}
        </Text>
        {data.enabled && entries.length > 0 && (
          <Button size="small" variant="transparent" onClick={() => setOpen(!open)} data-testid="altapay-request-log-toggle">
            {`${t(open ? "requestLog.hide" : "requestLog.show")} (${t("requestLog.count", { count: entries.length })})`}
          </Button>
        )}
      </div>
      <Text size="xsmall" className="text-ui-fg-subtle">
        {!data.enabled
          ? t("requestLog.off")
          : entries.length === 0
            ? t("requestLog.empty", { days: data.retention_days })
            : t("requestLog.kept", { days: data.retention_days, max: data.max_entries })}
      </Text>
      {open && entries.map((entry) => <EntryRow key={entry.id} entry={entry} />)}
    </div>
  )
}

function EntryRow({ entry }: { entry: AdminRequestLogEntry }) {
  const { t, language } = useAdminText()
  const answer = [entry.status === null ? t("requestLog.noAnswer") : `HTTP ${entry.status}`, entry.result, entry.error_code, entry.gateway_error_code]
  const details = [
    formatDate(entry.at, language),
    `${entry.duration_ms} ms`,
    entry.retries > 0 ? t("requestLog.retries", { count: entry.retries }) : null,
    entry.reconciliation_identifier ? t("requestLog.reconciliation", { id: entry.reconciliation_identifier }) : null,
  ]
  return (
    <div className="border-ui-border-base border-t py-2" data-testid="altapay-request-log-entry" data-outcome={entry.outcome}>
      <div className="flex items-center justify-between gap-x-2">
        <Text size="small" leading="compact" className="font-mono">
          {entry.operation}
        </Text>
        <Badge
          size="2xsmall"
          color={
            entry.outcome === "success" ? "green" : entry.outcome === "open" ? "blue" : entry.outcome === "declined" ? "orange" : entry.outcome === "not_sent" ? "grey" : "red"
          }
        >
          {t(`requestLog.outcome.${entry.outcome}`)}
        </Badge>
      </div>
      <Text size="xsmall" className="text-ui-fg-subtle">
        {[...answer, ...details].filter((part) => part !== null && part !== undefined && part !== "").join(" · ")}
      </Text>
      {[entry.merchant_message, entry.cardholder_message]
        .filter((message): message is string => !!message)
        .map((message) => (
          <Text key={message} size="xsmall">
            {message}
          </Text>
        ))}
    </div>
  )
}
