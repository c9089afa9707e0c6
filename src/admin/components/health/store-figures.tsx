/**
 * What the AltaPay page shows for the whole store: the follow-up jobs' last runs, money attempts
 * still uncertain (each with its order: open it and press the same action again, or let the job
 * settle it), reservations about to expire, and open payout exceptions (a link to them).
 */
import { Badge, Container, Table, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { useAdminText } from "../../i18n/use-admin-text"
import { formatDate, formatMinor } from "../../lib/format"
import { JOB_NAMES, RUNBOOK, type AdminAltaPayHealthResponse } from "../../lib/health-api"
import { Runbook, Section } from "./common"

const iso = (ms: number) => new Date(ms).toISOString()

export function StoreFigures({ health }: { health: AdminAltaPayHealthResponse }) {
  return (
    <Container className="divide-y p-0" data-testid="health-store">
      <Jobs jobs={health.jobs} />
      <Uncertain uncertain={health.uncertain} />
      <Expiring expiring={health.expiring} />
      <PayoutExceptions exceptions={health.payoutExceptions} />
    </Container>
  )
}

function Jobs({ jobs }: Pick<AdminAltaPayHealthResponse, "jobs">) {
  const { t, language } = useAdminText()
  return (
    <Section title={t("health.jobs.title")} testId="health-jobs" action={<Runbook section={RUNBOOK.jobs} />}>
      {jobs.length === 0 ? (
        <Text size="small">{t("health.jobs.none")}</Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("health.jobs.job")}</Table.HeaderCell>
              <Table.HeaderCell>{t("health.jobs.lastRun")}</Table.HeaderCell>
              <Table.HeaderCell>{t("health.jobs.did")}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {jobs.map((run) => {
              const name = JOB_NAMES[run.job as keyof typeof JOB_NAMES]
              return (
                <Table.Row key={run.job} data-testid={`health-job-${name ?? run.job}`}>
                  <Table.Cell>{name ? t(`health.jobs.names.${name}`) : run.job}</Table.Cell>
                  <Table.Cell>{formatDate(iso(run.at), language)}</Table.Cell>
                  <Table.Cell className="whitespace-normal">
                    {run.stopped && (
                      <Badge size="2xsmall" color="red" className="mr-2">
                        {t("health.jobs.stopped")}
                      </Badge>
                    )}
                    {run.line}
                  </Table.Cell>
                </Table.Row>
              )
            })}
          </Table.Body>
        </Table>
      )}
    </Section>
  )
}

function Uncertain({ uncertain }: Pick<AdminAltaPayHealthResponse, "uncertain">) {
  const { t, language } = useAdminText()
  return (
    <Section title={t("health.uncertain.title")} testId="health-uncertain">
      {uncertain.length === 0 && <Text size="small">{t("health.uncertain.none")}</Text>}
      {uncertain.map((a, i) => (
        <div key={i} className="flex items-center justify-between gap-x-4 py-0.5" data-testid="health-uncertain-attempt">
          <Text size="small">
            {t("health.uncertain.attempt", {
              kind: t(`health.uncertain.kinds.${a.kind as "capture"}`),
              amount: formatMinor(t, a.amountMinor, a.currency),
              date: formatDate(iso(a.at), language),
            })}
          </Text>
          <OrderAction order={a} testId="health-uncertain-order" />
        </div>
      ))}
    </Section>
  )
}

function Expiring({ expiring }: Pick<AdminAltaPayHealthResponse, "expiring">) {
  const { t, language } = useAdminText()
  return (
    <Section title={t("health.expiring.title")} testId="health-expiring">
      {expiring.length === 0 && <Text size="small">{t("health.expiring.none")}</Text>}
      {expiring.map((r) => (
        <div key={r.paymentId} className="flex items-center justify-between gap-x-4 py-0.5" data-testid="health-expiring-reservation">
          <Text size="small">
            {t(r.lapsed ? "health.expiring.lapsed" : "health.expiring.reservation", {
              amount: formatMinor(t, r.uncapturedMinor, r.currency),
              date: formatDate(r.expiresAt, language),
            })}
          </Text>
          <OrderAction order={r} testId="health-expiring-order" />
        </div>
      ))}
    </Section>
  )
}

/** The action that settles a figure on one payment: open its order (none found: said so). */
function OrderAction({ order, testId }: { order: { orderId: string | null; orderDisplayId: number | null }; testId: string }) {
  const { t } = useAdminText()
  if (!order.orderId) {
    return (
      <Text size="small" className="text-ui-fg-subtle">
        {t("health.uncertain.noOrder")}
      </Text>
    )
  }
  return (
    <Link to={`/orders/${order.orderId}`} className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover" data-testid={testId}>
      {t("health.uncertain.openOrder")}
      {order.orderDisplayId ? ` #${order.orderDisplayId}` : ""}
    </Link>
  )
}

function PayoutExceptions({ exceptions }: { exceptions: AdminAltaPayHealthResponse["payoutExceptions"] }) {
  const { t } = useAdminText()
  return (
    <Section title={t("health.payouts.title")} testId="health-payout-exceptions">
      {!exceptions ? (
        <Text size="small">{t("health.payouts.notInstalled")}</Text>
      ) : exceptions.count === 0 ? (
        <Text size="small">{t("health.payouts.none")}</Text>
      ) : (
        <div className="flex items-center justify-between gap-x-4">
          <Text size="small" data-testid="health-payout-exceptions-count">
            {t("health.payouts.open", { count: exceptions.count })}
          </Text>
          <Link to="/payouts/exceptions" className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover" data-testid="health-payout-exceptions-link">
            {t("health.payouts.openList")}
          </Link>
        </div>
      )}
    </Section>
  )
}
