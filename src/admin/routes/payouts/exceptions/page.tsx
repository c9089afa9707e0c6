/** Payouts > Exceptions: what did not pay out as Medusa recorded it, filterable and as CSV. */
import { Container, Heading, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { PayoutExceptionsList } from "../../../components/payouts/exceptions-list"

const PayoutExceptionsPage = () => (
  <Container className="divide-y p-0" data-testid="payout-exceptions-page">
    <div className="px-6 py-4">
      <Text size="small">
        <Link to="/payouts" className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover">
          AltaPay payouts
        </Link>{" "}
        /
      </Text>
      <Heading level="h1">Payout exceptions</Heading>
    </div>
    <PayoutExceptionsList />
  </Container>
)

export default PayoutExceptionsPage
