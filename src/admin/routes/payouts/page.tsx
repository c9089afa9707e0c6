/**
 * Payouts (sidebar): the funding files AltaPay paid out to the merchant's bank, as the payouts job
 * imported them, with a way to run the import now, the list as CSV, and the exceptions finance must
 * look at.
 */
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Cash } from "@medusajs/icons"
import { Container, Heading, Text, TooltipProvider } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { CsvLink } from "../../components/payouts/common"
import { PayoutFilesTable } from "../../components/payouts/files-table"
import { ImportNowButton } from "../../components/payouts/import-button"
import { useAdminText } from "../../i18n/use-admin-text"
import { payoutsExportPath } from "../../lib/payouts-api"

const PayoutsPage = () => {
  const { t } = useAdminText()
  return (
    <TooltipProvider>
      <Container className="divide-y p-0" data-testid="payouts-page">
        <div className="flex items-start justify-between gap-x-4 px-6 py-4">
          <div>
            <Heading level="h1">{t("AltaPay payouts")}</Heading>
            <Text size="small" className="text-ui-fg-subtle">
              {t("payouts.intro")}{" "}
              <Link to="/payouts/exceptions" className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover" data-testid="payouts-exceptions-link">
                {t("payouts.exceptionsLink")}
              </Link>
            </Text>
          </div>
          <div className="flex items-baseline gap-x-4">
            <span className="whitespace-nowrap">
              <CsvLink path={payoutsExportPath} filename="altapay-payouts.csv" testId="payouts-csv" />
            </span>
            <ImportNowButton />
          </div>
        </div>
        <PayoutFilesTable />
      </Container>
    </TooltipProvider>
  )
}

// The label is a key of our namespace (src/admin/i18n/en.ts), the English words themselves: a Medusa
// that does not translate route labels shows it as it is. Medusa's build reads translationNs only as
// a string literal (ADMIN_NAMESPACE; test/lint/translations.test.ts holds them equal).
export const config = defineRouteConfig({ label: "AltaPay payouts", translationNs: "altapay", icon: Cash })

export default PayoutsPage
