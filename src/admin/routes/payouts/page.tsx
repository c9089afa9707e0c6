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
import { payoutsExportPath } from "../../lib/payouts-api"

const PayoutsPage = () => (
  <TooltipProvider>
    <Container className="divide-y p-0" data-testid="payouts-page">
      <div className="flex items-start justify-between gap-x-4 px-6 py-4">
        <div>
          <Heading level="h1">AltaPay payouts</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Funding files: what AltaPay paid out, less its fees, and which Medusa orders each line belongs to.{" "}
            <Link to="/payouts/exceptions" className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover" data-testid="payouts-exceptions-link">
              Exceptions
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

export const config = defineRouteConfig({ label: "AltaPay payouts", icon: Cash })

export default PayoutsPage
