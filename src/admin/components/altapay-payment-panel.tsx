/** One AltaPay payment: state and amounts as AltaPay reports them, card, identifiers, refunds. */
import { Alert, Badge, Button, Container, Copy, Heading, StatusBadge, Text } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState, type ReactNode } from "react"
import { useAdminText } from "../i18n/use-admin-text"
import { altapayQueryKey, approveAltaPayCapture, getAltaPayPayment, type AdminAltaPayPayment, type AdminAltaPayRefund } from "../lib/altapay-api"
import { formatDate, formatMinor, formatMoney, statusBadge } from "../lib/format"
import { avsText, expiryText, fraudText } from "../lib/review-texts"
import { canCaptureItems, canRefundItems } from "../lib/payment-actions"
import { dayFormat, reservationLeftText } from "../lib/reservation-left"
import { ItemCaptureDrawer } from "./item-capture-drawer"
import { ItemRefundDrawer } from "./item-refund-drawer"
import { PayoutStatusSection } from "./payout-status-section"

export function AltaPayPaymentPanel({ orderId, paymentId }: { orderId: string; paymentId: string }) {
  const { data, error, isLoading } = useQuery({ queryKey: altapayQueryKey(paymentId), queryFn: () => getAltaPayPayment(paymentId) })
  const [refunding, setRefunding] = useState(false)
  const [capturing, setCapturing] = useState(false)
  const { t } = useAdminText()

  return (
    <Container className="divide-y p-0" data-testid="altapay-payment" data-payment-id={paymentId}>
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{t("panel.title")}</Heading>
        {data && <TransactionBadge payment={data} />}
      </div>
      {isLoading && (
        <div className="px-6 py-4">
          <Text size="small" className="text-ui-fg-subtle">
            {t("panel.loading")}
          </Text>
        </div>
      )}
      {error && (
        <div className="px-6 py-4">
          <Alert variant="error">{error instanceof Error ? error.message : String(error)}</Alert>
        </div>
      )}
      {data && (
        <>
          {!data.altapay.live && data.altapay.error && (
            <div className="px-6 py-4">
              <Alert variant="warning">{t("panel.staleValues", { error: data.altapay.error })}</Alert>
            </div>
          )}
          <ReviewSection payment={data} />
          <Amounts payment={data} />
          <ReservationLeft payment={data} />
          <Details payment={data} />
          <Refunds refunds={data.refunds} openCount={data.open_refunds} />
          <PayoutStatusSection payment={data} />
          <div className="flex justify-end gap-x-2 px-6 py-4">
            <Button size="small" variant="secondary" data-testid="altapay-capture-items" disabled={!canCaptureItems(data)} onClick={() => setCapturing(true)}>
              {t("panel.captureItems")}
            </Button>
            <Button size="small" variant="secondary" data-testid="altapay-refund-items" disabled={!canRefundItems(data)} onClick={() => setRefunding(true)}>
              {t("panel.refundItems")}
            </Button>
          </div>
          <ItemCaptureDrawer open={capturing} onOpenChange={setCapturing} orderId={orderId} payment={data} />
          <ItemRefundDrawer open={refunding} onOpenChange={setRefunding} orderId={orderId} payment={data} />
        </>
      )}
    </Container>
  )
}

function TransactionBadge({ payment }: { payment: AdminAltaPayPayment }) {
  const { t } = useAdminText()
  const { color, label } = statusBadge(t, payment.altapay.status, payment.altapay)
  return (
    <StatusBadge color={color} data-testid="altapay-status">
      {label}
    </StatusBadge>
  )
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex items-start justify-between gap-x-4 py-1">
      <Text size="small" leading="compact" className="text-ui-fg-subtle shrink-0">
        {label}
      </Text>
      <Text size="small" leading="compact" className="min-w-0 text-right break-words" data-testid={testId}>
        {children}
      </Text>
    </div>
  )
}

function Amounts({ payment }: { payment: AdminAltaPayPayment }) {
  const { altapay, refundable } = payment
  const { t } = useAdminText()
  return (
    <div className="px-6 py-3">
      <Row label={t("panel.reserved")} testId="altapay-reserved">
        {formatMoney(altapay.reserved)}
      </Row>
      <Row label={t("panel.captured")} testId="altapay-captured">
        {formatMoney(altapay.captured)}
      </Row>
      <Row label={t("panel.refunded")} testId="altapay-refunded">
        {formatMoney(altapay.refunded)}
      </Row>
      <Row label={t("panel.refundable")} testId="altapay-refundable">
        {formatMoney(refundable.amount)}
      </Row>
    </div>
  )
}

/** Part captured, the rest still reserved: AltaPay cannot release it, so say how much and until about when. */
function ReservationLeft({ payment }: { payment: AdminAltaPayPayment }) {
  const left = payment.reservation_left
  const { t, language } = useAdminText()
  if (!left) return null
  return (
    <div className="px-6 py-3">
      <Alert variant={left.abandoned ? "warning" : "info"} data-testid="altapay-reservation-left">
        {reservationLeftText(t, left, dayFormat(language))}
      </Alert>
    </div>
  )
}

/** The review section: AltaPay's fraud check and AVS, "Approve capture" for a held payment, the reservation's expiry, a surcharge. */
function ReviewSection({ payment }: { payment: AdminAltaPayPayment }) {
  const { fraud, expiry, surcharge_minor } = payment.review
  const { t, language } = useAdminText()
  const queryClient = useQueryClient()
  const approve = useMutation({
    mutationFn: () => approveAltaPayCapture(payment.id),
    onSuccess: (after) => queryClient.setQueryData(altapayQueryKey(payment.id), after),
  })
  if (!fraud && !expiry && surcharge_minor === null) return null
  const day = dayFormat(language)
  const held = fraud && fraudText(t, fraud, day)
  const lapse = expiry && expiryText(t, expiry, day)
  const currency = payment.currency_code.toUpperCase()
  return (
    <div className="flex flex-col gap-y-2 px-6 py-4" data-testid="altapay-review">
      {held && (
        <Alert variant={held.variant} data-testid="altapay-fraud-hold">
          {held.text}
        </Alert>
      )}
      {fraud?.held && (
        <div className="flex justify-end">
          <Button size="small" variant="primary" data-testid="altapay-approve-capture" isLoading={approve.isPending} onClick={() => approve.mutate()}>
            {approve.isPending ? t("review.approving") : t("review.approve")}
          </Button>
        </div>
      )}
      {approve.error && <Alert variant="error">{approve.error instanceof Error ? approve.error.message : String(approve.error)}</Alert>}
      {fraud && (
        <div>
          {fraud.recommendation && (
            <Row label={t("review.fraudRecommendation")} testId="altapay-fraud-recommendation">
              {fraud.recommendation}
            </Row>
          )}
          <Row label={t("review.avs")} testId="altapay-avs">
            {avsText(t, fraud)}
          </Row>
        </div>
      )}
      {surcharge_minor !== null && (
        <Row label={t("review.surcharge")} testId="altapay-surcharge">
          {formatMinor(t, surcharge_minor, currency)}
        </Row>
      )}
      {lapse && (
        <Alert variant={lapse.variant} data-testid="altapay-reservation-expiry">
          {lapse.text}
        </Alert>
      )}
    </div>
  )
}

function Details({ payment }: { payment: AdminAltaPayPayment }) {
  const { altapay } = payment
  const card = [altapay.card.scheme, altapay.card.masked_pan].filter(Boolean).join(" ")
  const { t, language } = useAdminText()
  return (
    <div className="px-6 py-3">
      <Row label={t("panel.transaction")} testId="altapay-transaction-id">
        {altapay.transaction_id ? (
          <span className="inline-flex items-center gap-x-1">
            {altapay.transaction_id} <Copy content={altapay.transaction_id} />
          </span>
        ) : (
          "–"
        )}
      </Row>
      <Row label={t("panel.shopOrderId")}>
        <span className="inline-flex items-center gap-x-1 break-all">
          {altapay.shop_order_id} <Copy content={altapay.shop_order_id} />
        </span>
      </Row>
      {card && (
        <Row label={t("panel.card")} testId="altapay-card">
          {card}
          {altapay.card.expiry ? ` (${altapay.card.expiry})` : ""}
        </Row>
      )}
      {altapay.fraud.score !== null && (
        <Row label={t("panel.fraudScore")} testId="altapay-fraud-score">
          {altapay.fraud.score}
          {altapay.fraud.explanation ? ` – ${altapay.fraud.explanation}` : ""}
        </Row>
      )}
      <Row label={t("panel.provider")} testId="altapay-provider">
        {payment.provider_id}
      </Row>
      {altapay.terminal && (
        <Row label={t("panel.terminal")} testId="altapay-terminal">
          {altapay.terminal}
        </Row>
      )}
      {payment.reconciled && (
        <Row label={t("panel.lastReconciled")} testId="altapay-reconciled">
          {t(`panel.reconciled.${payment.reconciled.by}`, { date: formatDate(payment.reconciled.at, language) })}
        </Row>
      )}
      {payment.chargebacks.map((chargeback) => (
        <Row key={chargeback.key} label={t("panel.chargeback", { type: chargeback.type })} testId="altapay-chargeback">
          <span className="text-ui-fg-error">
            {formatMoney(chargeback.amount)} – {[chargeback.reason_code, chargeback.reason].filter(Boolean).join(" ") || t("panel.noReason")} ({chargeback.date.slice(0, 10)})
          </span>
        </Row>
      ))}
      {payment.unsettled_captures.map((capture) => (
        <Row key={capture.reconciliation_identifier} label={t(capture.status === "open" ? "panel.captureOpen" : "panel.captureFailed")} testId="altapay-unsettled-capture">
          {formatMoney(capture.amount)}
          {capture.failure_reason ? ` – ${capture.failure_reason}` : ""}
        </Row>
      ))}
      {altapay.reconciliation_identifiers.length > 0 && (
        <div className="pt-2" data-testid="altapay-reconciliation">
          <Text size="small" leading="compact" weight="plus">
            {t("panel.reconciliationIdentifiers")}
          </Text>
          {altapay.reconciliation_identifiers.map((r) => (
            <div key={`${r.type}:${r.id}`} className="flex items-center justify-between gap-x-2 py-0.5">
              <Text size="xsmall" className="text-ui-fg-subtle break-all">
                {r.id}
              </Text>
              <Text size="xsmall" className="whitespace-nowrap">
                {r.type} {formatMoney(r.amount)}
              </Text>
            </div>
          ))}
        </div>
      )}
    </div>
  )
}

function Refunds({ refunds, openCount }: { refunds: AdminAltaPayRefund[]; openCount: number }) {
  const { t, language } = useAdminText()
  if (refunds.length === 0) return null
  return (
    <div className="px-6 py-3" data-testid="altapay-refunds">
      <div className="flex items-center justify-between pb-1">
        <Text size="small" leading="compact" weight="plus">
          {t("panel.refunds")}
        </Text>
        {openCount > 0 && (
          <Badge size="2xsmall" color="orange" data-testid="altapay-open-refunds">
            {t("panel.openRefunds", { count: openCount })}
          </Badge>
        )}
      </div>
      {refunds.map((refund) => (
        <div key={refund.reconciliation_identifier} className="border-ui-border-base border-t py-2 first:border-t-0" data-testid="altapay-refund">
          <div className="flex items-center justify-between">
            <Text size="small" leading="compact" weight="plus">
              {formatMoney(refund.amount)}
            </Text>
            <Badge size="2xsmall" color={refund.open ? "orange" : refund.status === "failed" ? "red" : "green"}>
              {t(refund.open ? "panel.refundOpen" : refund.status === "failed" ? "panel.refundFailed" : "panel.refundDone")}
            </Badge>
          </div>
          {refund.failure_reason && (
            <Text size="xsmall" className="text-ui-fg-error" data-testid="altapay-refund-failure">
              {refund.failure_reason}
            </Text>
          )}
          {refund.items.length > 0 && (
            <Text size="xsmall" className="text-ui-fg-subtle">
              {refund.items.map((item) => `${item.quantity} × ${item.title}`).join(", ")}
            </Text>
          )}
          {refund.note && (
            <Text size="xsmall" className="text-ui-fg-subtle">
              “{refund.note}”
            </Text>
          )}
          <Text size="xsmall" className="text-ui-fg-muted">
            {formatDate(refund.created_at, language)}
            {refund.source === "altapay" ? ` · ${t("panel.madeOutsideMedusa")}` : ""}
          </Text>
        </div>
      ))}
    </div>
  )
}
