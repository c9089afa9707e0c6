/** Payouts > Exceptions: what did not pay out as Medusa recorded it, filterable and as CSV. */
import { Container, Heading } from "@medusajs/ui"
import { PayoutsBackLink } from "../../../components/payouts/common"
import { PayoutExceptionsList } from "../../../components/payouts/exceptions-list"
import { useAdminText } from "../../../i18n/use-admin-text"

const PayoutExceptionsPage = () => {
  const { t } = useAdminText()
  return (
    <Container className="divide-y p-0" data-testid="payout-exceptions-page">
      <div className="px-6 py-4">
        <PayoutsBackLink />
        <Heading level="h1">{t("payouts.exceptionsTitle")}</Heading>
      </div>
      <PayoutExceptionsList />
    </Container>
  )
}

export default PayoutExceptionsPage
