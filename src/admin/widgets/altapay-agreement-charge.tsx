/**
 * "Charge saved card" on the order page: when the order still waits for money (an order edit, claim
 * or exchange left a difference) and its customer has a saved AltaPay card in the order's currency,
 * the admin charges that card for the amount outstanding, captured at once or only reserved (the
 * registration's autoCapture is the default). Renders nothing otherwise.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Button, Container, Heading, Select, Text, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { useAdminText } from "../i18n/use-admin-text"
import { ShippingCheckbox as OptionCheckbox } from "../components/item-drawer-parts"
import { agreementChargesQueryKey, chargeSavedCard, getChargeableOrder } from "../lib/agreement-charges-api"
import { formatMoney } from "../lib/format"
import { formatExpiry } from "../lib/saved-cards-api"

const AltaPayAgreementCharge = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const queryClient = useQueryClient()
  const prompt = usePrompt()
  const { t } = useAdminText()
  const { data: chargeable } = useQuery({ queryKey: agreementChargesQueryKey(order.id), queryFn: () => getChargeableOrder(order.id) })
  const [chosen, setChosen] = useState<string | undefined>()
  const [capture, setCapture] = useState<boolean | undefined>()
  const cards = chargeable?.saved_cards ?? []
  const card = cards.find((c) => c.id === chosen) ?? cards[0]
  const captureNow = capture ?? card?.auto_capture ?? false

  const mutation = useMutation({
    mutationFn: () => chargeSavedCard(order.id, { saved_card_id: card!.id, capture: captureNow }),
    onSuccess: ({ agreement_charge: charge }) =>
      toast.success(t(charge.status === "captured" ? "agreementCharge.charged" : "agreementCharge.reserved"), {
        description: t(charge.charged ? "agreementCharge.chargedDetail" : "agreementCharge.alreadyChargedDetail", { amount: formatMoney(charge.amount) }),
      }),
    onError: (error) => toast.error(t("agreementCharge.failed"), { description: error instanceof Error ? error.message : String(error) }),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: agreementChargesQueryKey(order.id) }), queryClient.invalidateQueries({ queryKey: ["orders"] })]),
  })
  if (!chargeable || !card || chargeable.outstanding.minor <= 0) return null

  const confirmCharge = async () => {
    const confirmed = await prompt({
      title: t("agreementCharge.confirmTitle"),
      description: t(captureNow ? "agreementCharge.confirmCharge" : "agreementCharge.confirmReserve", {
        amount: formatMoney(chargeable.outstanding),
        card: `${card.scheme ?? t("common.card")} ${card.masked_pan}`,
      }),
      confirmText: t(captureNow ? "agreementCharge.confirmChargeButton" : "agreementCharge.confirmReserveButton"),
      cancelText: t("common.cancel"),
    })
    if (confirmed) mutation.mutate()
  }

  return (
    <Container className="divide-y p-0" data-testid="altapay-agreement-charge">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{t("agreementCharge.title")}</Heading>
      </div>
      <div className="flex flex-col gap-y-3 px-6 py-4">
        <Text size="small" className="text-ui-fg-subtle">
          {t("agreementCharge.outstanding", { amount: formatMoney(chargeable.outstanding) })}
        </Text>
        <Select value={card.id} onValueChange={setChosen} size="small">
          <Select.Trigger data-testid="altapay-agreement-card">
            <Select.Value />
          </Select.Trigger>
          <Select.Content>
            {cards.map((c) => (
              <Select.Item key={c.id} value={c.id}>
                {c.scheme ?? t("common.card")} {c.masked_pan} · {formatExpiry(c.expiry)}
              </Select.Item>
            ))}
          </Select.Content>
        </Select>
        <OptionCheckbox id="altapay-agreement-capture" label={t("agreementCharge.captureNow")} checked={captureNow} onChange={setCapture} />
        <div>
          <Button size="small" variant="secondary" data-testid="altapay-charge-saved-card" isLoading={mutation.isPending} onClick={() => void confirmCharge()}>
            {t("agreementCharge.charge")}
          </Button>
        </div>
      </div>
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "order.details.side",
  id: "medusa-payment-altapay:agreement-charge",
})

export default AltaPayAgreementCharge
