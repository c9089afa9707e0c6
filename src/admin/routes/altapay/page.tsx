/**
 * AltaPay (sidebar): AltaPay's health for whoever is on call, per registration (its set-up, what
 * AltaPay answers live, the posts it sent and those refused) and for the store (the follow-up
 * jobs' last runs, money attempts still uncertain, reservations about to expire, open payout
 * exceptions), each figure with the one action that settles it.
 */
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { BoltSolid } from "@medusajs/icons"
import { Container, Heading, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { RegistrationCard } from "../../components/health/registration-card"
import { StoreFigures } from "../../components/health/store-figures"
import { useAdminText } from "../../i18n/use-admin-text"
import { healthQueryKey, loadHealth } from "../../lib/health-api"

const HealthPage = () => {
  const { t } = useAdminText()
  const { data, error, isLoading } = useQuery({ queryKey: healthQueryKey, queryFn: loadHealth, refetchInterval: 30_000 })
  return (
    <div className="flex flex-col gap-y-3" data-testid="health-page">
      <Container className="px-6 py-4">
        <Heading level="h1">{t("AltaPay health")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t("health.intro")}
        </Text>
        {isLoading && <Text size="small">{t("health.loading")}</Text>}
        {error && (
          <Text size="small" className="text-ui-fg-error">
            {error instanceof Error ? error.message : String(error)}
          </Text>
        )}
      </Container>
      {data?.registrations.map((registration) => (
        <RegistrationCard key={registration.providerId} registration={registration} />
      ))}
      {data && <StoreFigures health={data} />}
    </div>
  )
}

// The label is a key of our namespace (src/admin/i18n/en.ts), as the payouts page's.
export const config = defineRouteConfig({ label: "AltaPay health", translationNs: "altapay", icon: BoltSolid })

export default HealthPage
