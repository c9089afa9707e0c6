/** Runs the payouts import now (every registration) and shows what the run did. */
import { Alert, Button, Text, toast } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useAdminText } from "../../i18n/use-admin-text"
import { importPayoutsNow, payoutsQueryKey, type PayoutImportAccount } from "../../lib/payouts-api"

export function ImportNowButton() {
  const queryClient = useQueryClient()
  const { t } = useAdminText()
  const run = useMutation({
    mutationFn: importPayoutsNow,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: payoutsQueryKey })
    },
    onError: (error) => toast.error(t("payouts.import.failed"), { description: error instanceof Error ? error.message : String(error) }),
  })
  return (
    <div className="flex flex-col items-end gap-y-2">
      <Button size="small" variant="secondary" isLoading={run.isPending} onClick={() => run.mutate()} data-testid="payouts-import-now">
        {t("payouts.import.button")}
      </Button>
      {run.data && <ImportSummary accounts={run.data.accounts} />}
    </div>
  )
}

function ImportSummary({ accounts }: { accounts: PayoutImportAccount[] }) {
  const { t } = useAdminText()
  if (accounts.length === 0) return <Alert variant="warning">{t("payouts.import.noRegistration")}</Alert>
  const skipped = (a: PayoutImportAccount) =>
    [
      t("payouts.import.alreadyImported", { count: a.filesSkipped }),
      ...(a.filesBeforeReconcileFrom > 0 ? [t("payouts.import.beforeReconcileFrom", { count: a.filesBeforeReconcileFrom })] : []),
    ].join(", ")
  return (
    <div className="flex flex-col gap-y-1 text-right" data-testid="payouts-import-summary">
      {accounts.map((a) => (
        <div key={a.account}>
          <Text size="small" data-testid="payouts-import-account">
            {t("payouts.import.account", {
              account: a.account,
              files: t("payouts.import.newFiles", { count: a.filesImported }),
              skipped: skipped(a),
              lines: t("payouts.import.lines", { count: a.linesImported }),
              movements: t("payouts.import.movements", { count: a.movementsRecorded }),
              matched: t("payouts.import.matched", { byIdentifier: a.matched.byReconciliationIdentifier, byPayment: a.matched.byPaymentAndAmount }),
            })}
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
