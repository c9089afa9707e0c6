/** Payouts > one funding file: its summary, its lines and the orders they pay out, and the file as CSV. */
import { Container, Heading, TooltipProvider } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { useParams } from "react-router-dom"
import { CsvLink, LoadError, Notice, PayoutsBackLink } from "../../../components/payouts/common"
import { PayoutFileSummary } from "../../../components/payouts/file-summary"
import { PayoutLinesTable } from "../../../components/payouts/lines-table"
import { useAdminText } from "../../../i18n/use-admin-text"
import { getPayoutFile, payoutFileExportPath, payoutsQueryKey } from "../../../lib/payouts-api"

const PayoutFilePage = () => {
  const { id = "" } = useParams()
  const { t } = useAdminText()
  const { data: file, error, isLoading } = useQuery({ queryKey: [...payoutsQueryKey, "file", id], queryFn: () => getPayoutFile(id), enabled: !!id })
  return (
    <TooltipProvider>
      <Container className="divide-y p-0" data-testid="payout-file-page">
        <div className="flex items-start justify-between gap-x-4 px-6 py-4">
          <div className="min-w-0">
            <PayoutsBackLink />
            <Heading level="h1" className="break-all" data-testid="payout-file-name">
              {file?.filename ?? t("payouts.fileFallback")}
            </Heading>
          </div>
          {file && <CsvLink path={payoutFileExportPath(file.id)} filename={file.filename.replace(/\.csv$/i, "") + ".csv"} testId="payout-file-csv" />}
        </div>
        {isLoading && <Notice>{t("payouts.loadingFile")}</Notice>}
        {error && <LoadError error={error} />}
        {file && <PayoutFileSummary file={file} />}
        {file && <PayoutLinesTable fileId={file.id} fileCurrency={file.currency} />}
      </Container>
    </TooltipProvider>
  )
}

export default PayoutFilePage
