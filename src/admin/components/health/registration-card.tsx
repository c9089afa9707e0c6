/**
 * One AltaPay registration on the AltaPay page: its gateway, its set-up (terminals, URLs, which
 * secrets are set), what AltaPay answers live, and the posts AltaPay sent: the last one and how
 * late it came, those refused in the last day, each reason with its runbook section.
 */
import { Badge, Container, Heading, Text } from "@medusajs/ui"
import { useAdminText } from "../../i18n/use-admin-text"
import { formatDate } from "../../lib/format"
import { RUNBOOK, formatDuration, type RefusalReason, type RegistrationHealth } from "../../lib/health-api"
import { Row, Runbook, Section } from "./common"
import { LiveCheck } from "./live-check"

const GATEWAY_COLOR = { sandbox: "orange", test: "blue", production: "green" } as const
const REASONS: RefusalReason[] = ["signature", "source", "unknown-session"]

export function RegistrationCard({ registration }: { registration: RegistrationHealth }) {
  const { t } = useAdminText()
  const { providerId } = registration
  return (
    <Container className="divide-y p-0" data-testid={`health-registration-${providerId}`}>
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{providerId}</Heading>
        <Badge color={GATEWAY_COLOR[registration.gateway]} data-testid={`health-gateway-${providerId}`}>
          {t(`health.gateway.${registration.gateway}`)}
        </Badge>
      </div>
      <SetUp registration={registration} />
      <LiveCheck providerId={providerId} />
      <Posts registration={registration} />
    </Container>
  )
}

function SetUp({ registration }: { registration: RegistrationHealth }) {
  const { t } = useAdminText()
  const { urls, secrets } = registration
  const secret = (set: boolean) => (
    <Badge size="2xsmall" color={set ? "green" : "orange"}>
      {t(set ? "health.setup.present" : "health.setup.missing")}
    </Badge>
  )
  return (
    <Section title={t("health.setup.title")} testId={`health-setup-${registration.providerId}`}>
      <Row label={t("health.setup.terminals")}>
        {registration.terminals.length ? registration.terminals.map((n) => `${n.option}: ${n.title}`).join("; ") : t("health.setup.noTerminal")}
      </Row>
      <Row label={t("health.setup.checkoutUrl")}>{urls.checkout}</Row>
      <Row label={t("health.setup.gatewayUrl")}>{urls.gateway}</Row>
      <Row label={t("health.setup.notificationUrl")}>{urls.notification}</Row>
      <Row label={t("health.setup.successUrl")}>{urls.success ?? t("health.setup.notSet")}</Row>
      <Row label={t("health.setup.failureUrl")}>{urls.failure ?? t("health.setup.notSet")}</Row>
      <Row label={t("health.setup.password")}>{secret(secrets.password)}</Row>
      <Row label={t("health.setup.callbackSecret")}>{secret(secrets.callbackSecret)}</Row>
      <Row label={t("health.setup.paymentDataSecret")}>{secret(secrets.paymentDataSecret)}</Row>
      <Row label={t("health.setup.callbackSources")}>{t(`health.setup.sources.${registration.callbackSources}`)}</Row>
    </Section>
  )
}

function Posts({ registration }: { registration: RegistrationHealth }) {
  const { t, language } = useAdminText()
  const { providerId, posts } = registration
  const last = posts.lastReceived
  const road = last ? t(`health.posts.road.${last.road}`) : ""
  const date = last ? formatDate(new Date(last.at).toISOString(), language) : ""
  return (
    <Section title={t("health.posts.title")} testId={`health-posts-${providerId}`}>
      <Row label={t("health.posts.lastReceived")} testId={`health-last-post-${providerId}`}>
        {!last
          ? t("health.posts.none")
          : last.lateMs === null
            ? t("health.posts.unsigned", { road, date })
            : t("health.posts.late", { road, date, late: formatDuration(last.lateMs, language) })}
      </Row>
      {!last && <Runbook section={RUNBOOK.posts} />}
      <Text size="small" weight="plus" className="mt-3">
        {t("health.posts.refused")}
      </Text>
      {REASONS.map((reason) => (
        <div key={reason} className="flex items-center justify-between gap-x-4 py-0.5" data-testid={`health-refused-${reason}-${providerId}`}>
          <Text size="small">
            {t(`health.posts.reasons.${reason}`)}: <strong>{posts.refusedLastDay[reason]}</strong>
          </Text>
          {posts.refusedLastDay[reason] > 0 && <Runbook section={RUNBOOK.refused[reason]} />}
        </div>
      ))}
    </Section>
  )
}
