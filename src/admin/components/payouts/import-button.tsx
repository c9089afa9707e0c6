/** Runs the payouts import now (every registration) and shows what the run did. */
import { Alert, Button, Text, toast } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { importPayoutsNow, payoutsQueryKey, type PayoutImportAccount } from "../../lib/payouts-api"

export function ImportNowButton() {
  const queryClient = useQueryClient()
  const run = useMutation({
    mutationFn: importPayoutsNow,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: payoutsQueryKey })
    },
    onError: (error) => toast.error("The import failed", { description: error instanceof Error ? error.message : String(error) }),
  })
  return (
    <div className="flex flex-col items-end gap-y-2">
      <Button size="small" variant="secondary" isLoading={run.isPending} onClick={() => run.mutate()} data-testid="payouts-import-now">
        Import now
      </Button>
      {run.data && <ImportSummary accounts={run.data.accounts} />}
    </div>
  )
}

function ImportSummary({ accounts }: { accounts: PayoutImportAccount[] }) {
  if (accounts.length === 0) return <Alert variant="warning">No AltaPay registration imports payouts (payouts.enabled is off for all of them).</Alert>
  return (
    <div className="flex flex-col gap-y-1 text-right" data-testid="payouts-import-summary">
      {accounts.map((a) => (
        <div key={a.account}>
          <Text size="small" data-testid="payouts-import-account">
            {a.account}: {a.filesImported} new file{a.filesImported === 1 ? "" : "s"} ({a.filesSkipped} already imported
            {a.filesBeforeReconcileFrom > 0 ? `, ${a.filesBeforeReconcileFrom} dated before payouts.reconcileFrom left out` : ""}), {a.linesImported} line
            {a.linesImported === 1 ? "" : "s"}, {a.movementsRecorded} new captures and refunds from Medusa; matched {a.matched.byReconciliationIdentifier} by reconciliation
            identifier and {a.matched.byPaymentAndAmount} by payment id and amount.
          </Text>
          {a.notices.map((notice) => (
            <Text key={notice} size="small" className="text-ui-fg-subtle" data-testid="payouts-import-notice">
              {notice}
            </Text>
          ))}
          {a.problems.map((problem) => (
            <Text key={problem} size="small" className="text-ui-fg-error" data-testid="payouts-import-problem">
              {problem}
            </Text>
          ))}
        </div>
      ))}
    </div>
  )
}
