/**
 * What AltaPay answers for one registration, live: altapay-check's own checks (credentials, the
 * API user's terminals with their currencies and methods, funding files), run when the page opens
 * and again on "Check again" (the action that settles a look-up that failed).
 */
import { Badge, Button, Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { useAdminText } from "../../i18n/use-admin-text"
import { formatDate } from "../../lib/format"
import { RUNBOOK, checkRegistration, healthQueryKey } from "../../lib/health-api"
import { Runbook, Section } from "./common"

const STATUS_COLOR = { ok: "green", problem: "red", note: "blue", skipped: "grey" } as const
const CREDENTIALS_COLOR = { accepted: "green", refused: "red", unknown: "orange" } as const

export function LiveCheck({ providerId }: { providerId: string }) {
  const { t, language } = useAdminText()
  const { data, error, isFetching, refetch } = useQuery({
    queryKey: [...healthQueryKey, "check", providerId],
    queryFn: () => checkRegistration(providerId),
    refetchOnWindowFocus: false,
  })
  const again = (
    <Button size="small" variant="secondary" isLoading={isFetching} onClick={() => refetch()} data-testid={`health-check-again-${providerId}`}>
      {t("health.check.again")}
    </Button>
  )
  return (
    <Section title={t("health.check.title")} testId={`health-check-${providerId}`} action={again}>
      {!data && isFetching && <Text size="small">{t("health.check.checking")}</Text>}
      {error && (
        <Text size="small" className="text-ui-fg-error">
          {error instanceof Error ? error.message : String(error)}
        </Text>
      )}
      {data && (
        <div className="flex flex-col gap-y-3">
          <div className="flex items-center gap-x-2">
            <Badge size="2xsmall" color={CREDENTIALS_COLOR[data.credentials]} data-testid={`health-credentials-${providerId}`}>
              {t(`health.check.credentials.${data.credentials}`)}
            </Badge>
            <Text size="xsmall" className="text-ui-fg-subtle">
              {t("health.check.checkedAt", { date: formatDate(data.checkedAt, language) })}
            </Text>
          </div>
          {data.terminals.length > 0 && (
            <Table data-testid={`health-terminals-${providerId}`}>
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>{t("health.check.terminal")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("health.check.currencies")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("health.check.methods")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("health.check.namedBy")}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {data.terminals.map((terminal) => (
                  <Table.Row key={terminal.title}>
                    <Table.Cell>{terminal.title}</Table.Cell>
                    <Table.Cell>{terminal.currencies.join(", ") || "–"}</Table.Cell>
                    <Table.Cell>{terminal.natures.join(", ") || "–"}</Table.Cell>
                    <Table.Cell>{terminal.namedBy.join(", ") || t("health.check.notNamed")}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          )}
          <ul className="flex flex-col gap-y-1" data-testid={`health-check-lines-${providerId}`}>
            {data.lines.map((line, i) => (
              <li key={i} className="flex items-start gap-x-2">
                <Badge size="2xsmall" color={STATUS_COLOR[line.status]}>
                  {t(`health.check.status.${line.status}`)}
                </Badge>
                <Text size="small">{line.text}</Text>
              </li>
            ))}
          </ul>
          {data.lines.some((line) => line.status === "problem") && <Runbook section={RUNBOOK.check} />}
        </div>
      )}
    </Section>
  )
}
