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
import { ShippingCheckbox as OptionCheckbox } from "../components/item-drawer-parts"
import { agreementChargesQueryKey, chargeSavedCard, getChargeableOrder } from "../lib/agreement-charges-api"
import { formatMoney } from "../lib/format"
import { formatExpiry } from "../lib/saved-cards-api"

const AltaPayAgreementCharge = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const queryClient = useQueryClient()
  const prompt = usePrompt()
  const { data: chargeable } = useQuery({ queryKey: agreementChargesQueryKey(order.id), queryFn: () => getChargeableOrder(order.id) })
  const [chosen, setChosen] = useState<string | undefined>()
  const [capture, setCapture] = useState<boolean | undefined>()
  const cards = chargeable?.saved_cards ?? []
  const card = cards.find((c) => c.id === chosen) ?? cards[0]
  const captureNow = capture ?? card?.auto_capture ?? false

  const mutation = useMutation({
    mutationFn: () => chargeSavedCard(order.id, { saved_card_id: card!.id, capture: captureNow }),
    onSuccess: ({ agreement_charge: charge }) =>
      toast.success(charge.status === "captured" ? "Saved card charged" : "Amount reserved on the saved card", {
        description: `${formatMoney(charge.amount)}${charge.charged ? "" : " (AltaPay had this charge already; nothing was charged twice)"}.`,
      }),
    onError: (error) => toast.error("Could not charge the saved card", { description: error instanceof Error ? error.message : String(error) }),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: agreementChargesQueryKey(order.id) }), queryClient.invalidateQueries({ queryKey: ["orders"] })]),
  })
  if (!chargeable || !card || chargeable.outstanding.minor <= 0) return null

  const confirmCharge = async () => {
    const confirmed = await prompt({
      title: "Charge saved card?",
      description: `${formatMoney(chargeable.outstanding)} will be ${captureNow ? "charged to" : "reserved on"} ${card.scheme ?? "card"} ${card.masked_pan}.`,
      confirmText: captureNow ? "Charge" : "Reserve",
      cancelText: "Cancel",
    })
    if (confirmed) mutation.mutate()
  }

  return (
    <Container className="divide-y p-0" data-testid="altapay-agreement-charge">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Charge saved card</Heading>
      </div>
      <div className="flex flex-col gap-y-3 px-6 py-4">
        <Text size="small" className="text-ui-fg-subtle">
          {formatMoney(chargeable.outstanding)} is outstanding on this order.
        </Text>
        <Select value={card.id} onValueChange={setChosen} size="small">
          <Select.Trigger data-testid="altapay-agreement-card">
            <Select.Value />
          </Select.Trigger>
          <Select.Content>
            {cards.map((c) => (
              <Select.Item key={c.id} value={c.id}>
                {c.scheme ?? "Card"} {c.masked_pan} · {formatExpiry(c.expiry)}
              </Select.Item>
            ))}
          </Select.Content>
        </Select>
        <OptionCheckbox id="altapay-agreement-capture" label="Capture now (otherwise reserve, and capture later)" checked={captureNow} onChange={setCapture} />
        <div>
          <Button size="small" variant="secondary" data-testid="altapay-charge-saved-card" isLoading={mutation.isPending} onClick={() => void confirmCharge()}>
            Charge saved card
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
