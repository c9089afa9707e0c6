/**
 * Payouts (sidebar): the funding files AltaPay paid out to the merchant's bank, as the payouts job
 * imported them, with a way to run the import now and to the exceptions finance must look at.
 */
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Cash } from "@medusajs/icons"
import { Container, Heading, Text, TooltipProvider } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { PayoutFilesTable } from "../../components/payouts/files-table"
import { ImportNowButton } from "../../components/payouts/import-button"

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
        <ImportNowButton />
      </div>
      <PayoutFilesTable />
    </Container>
  </TooltipProvider>
)

export const config = defineRouteConfig({ label: "AltaPay payouts", icon: Cash })

export default PayoutsPage
