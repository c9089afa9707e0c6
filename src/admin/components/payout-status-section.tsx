/**
 * On the order page's AltaPay panel: which AltaPay payout each capture and refund went into,
 * rejected in, or that it is still awaiting one, with a link to the payout's page.
 */
import { Badge, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import type { AdminAltaPayPayment } from "../lib/altapay-api"
import { useAdminText } from "../i18n/use-admin-text"
import { formatDate, formatMinor } from "../lib/format"
import type { MovementPayout } from "../../modules/altapay-payouts/types"

export function PayoutStatusSection({ payment }: { payment: AdminAltaPayPayment }) {
  const { t } = useAdminText()
  if (payment.payouts.length === 0 && !payment.payouts_error) return null
  return (
    <div className="px-6 py-3" data-testid="altapay-payouts">
      <Text size="small" leading="compact" weight="plus" className="pb-1">
        {t("payouts.status.title")}
      </Text>
      {payment.payouts_error && (
        <Text size="xsmall" className="text-ui-fg-error">
          {payment.payouts_error}
        </Text>
      )}
      {payment.payouts.map((movement) => (
        <MovementRow key={movement.medusaId} movement={movement} />
      ))}
    </div>
  )
}

/** The line that decided the status: the one paying the movement out, or the one rejecting it. */
function decidingLine(movement: MovementPayout): MovementPayout["lines"][number] | undefined {
  if (movement.status === "awaiting") return undefined
  const rejecting = (type: string | null) => /_rejected$/.test(type ?? "")
  return movement.lines.find((l) => rejecting(l.type) === (movement.status === "rejected")) ?? movement.lines[0]
}

function MovementRow({ movement }: { movement: MovementPayout }) {
  const line = decidingLine(movement)
  const { t, tx, language } = useAdminText()
  const rejected = movement.status === "rejected"
  return (
    <div className="border-ui-border-base border-t py-2 first:border-t-0" data-testid="altapay-payout" data-medusa-id={movement.medusaId} data-status={movement.status}>
      <div className="flex items-center justify-between">
        <Text size="small" leading="compact">
          {t(movement.kind === "capture" ? "payouts.status.capture" : "payouts.status.refund", { amount: formatMinor(t, movement.amountMinor, movement.currency) })}
        </Text>
        <Badge size="2xsmall" color={movement.status === "funded" ? "green" : movement.status === "rejected" ? "red" : "grey"}>
          {t(movement.status === "funded" ? "payouts.status.funded" : rejected ? "payouts.status.rejected" : "payouts.status.awaiting")}
        </Badge>
      </div>
      <Text size="xsmall" className="text-ui-fg-subtle" data-testid="altapay-payout-text">
        {line
          ? tx(
              line.netMinor === null
                ? rejected
                  ? "payouts.status.rejectedIn"
                  : "payouts.status.paidOutIn"
                : rejected
                  ? "payouts.status.rejectedInNet"
                  : "payouts.status.paidOutInNet",
              {
                file: (
                  <Link to={`/payouts/${line.fileId}`} className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover" data-testid="altapay-payout-link">
                    {line.filename}
                  </Link>
                ),
                date: line.fundingDate,
                amount: line.netMinor === null ? "" : formatMinor(t, line.netMinor, line.settlementCurrency),
              }
            )
          : t("payouts.status.awaitingSince", { date: formatDate(movement.recordedAt, language) })}
      </Text>
    </div>
  )
}
