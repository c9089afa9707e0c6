/**
 * The item-refund form: a quantity per item (up to what is still refundable), the shipping, a
 * note. The server computes the exact AltaPay lines and amount; the answer is shown as a toast,
 * AltaPay's own message when it refuses.
 */
import { Label, Text, Textarea, toast } from "@medusajs/ui"
import { useMutation } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { useAdminText } from "../i18n/use-admin-text"
import { refundAltaPayItems, type AdminAltaPayPayment, type ItemRefundInput } from "../lib/altapay-api"
import { formatMoney } from "../lib/format"
import { chosenQuantities } from "../lib/item-quantities"
import { ItemDrawer, QuantityRow, ShippingCheckbox, useRefreshPayment } from "./item-drawer-parts"

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  orderId: string
  payment: AdminAltaPayPayment
}

export function ItemRefundDrawer({ open, onOpenChange, orderId, payment }: Props) {
  const refresh = useRefreshPayment(payment.id, orderId)
  const [quantities, setQuantities] = useState<Record<string, string>>({})
  const [shipping, setShipping] = useState(false)
  const [note, setNote] = useState("")
  const { t } = useAdminText()

  useEffect(() => {
    if (open) {
      setQuantities({})
      setShipping(false)
      setNote("")
    }
  }, [open])

  const mutation = useMutation({
    mutationFn: (input: ItemRefundInput) => refundAltaPayItems(payment.id, input),
    onSuccess: async ({ refund }) => {
      const amount = formatMoney(refund.amount)
      toast.success(t(refund.open ? "refundDrawer.sentOpen" : "refundDrawer.done"), {
        description: t(refund.open ? "refundDrawer.sentOpenDetail" : "refundDrawer.doneDetail", { amount }),
      })
      onOpenChange(false)
    },
    onError: (error) => {
      toast.error(t("refundDrawer.failed"), { description: error instanceof Error ? error.message : String(error) })
    },
    onSettled: refresh,
  })

  const items = payment.refundable.items.filter((item) => item.refundable_quantity > 0)
  const shippingLeft = payment.refundable.shipping.filter((s) => !s.refunded)
  const { items: chosen, invalid } = chosenQuantities(
    items.map((item) => ({ line_item_id: item.line_item_id, left: item.refundable_quantity })),
    quantities
  )
  const nothing = chosen.length === 0 && !shipping

  const submit = () => {
    if (invalid || nothing) return
    mutation.mutate({ items: chosen, ...(shipping ? { shipping: true } : {}), ...(note.trim() ? { note: note.trim() } : {}) })
  }

  return (
    <ItemDrawer
      open={open}
      onOpenChange={onOpenChange}
      testId="altapay-refund-drawer"
      title={t("refundDrawer.title")}
      submit={{ testId: "altapay-refund-submit", label: t("refundDrawer.submit"), loading: mutation.isPending, disabled: invalid || nothing, onClick: submit }}
    >
      <Text size="small" className="text-ui-fg-subtle">
        {t("refundDrawer.intro", { amount: formatMoney(payment.refundable.amount) })}
      </Text>
      {items.map((item) => (
        <QuantityRow
          key={item.line_item_id}
          inputId={`altapay-qty-${item.line_item_id}`}
          title={item.title}
          detail={`${t("refundDrawer.itemDetail", { left: item.refundable_quantity, quantity: item.quantity })}${item.sku ? ` · ${item.sku}` : ""}`}
          max={item.refundable_quantity}
          value={quantities[item.line_item_id] ?? ""}
          onChange={(value) => setQuantities((q) => ({ ...q, [item.line_item_id]: value }))}
        />
      ))}
      {shippingLeft.length > 0 && (
        <ShippingCheckbox
          id="altapay-refund-shipping"
          label={t("refundDrawer.shipping", { methods: shippingLeft.map((s) => `${s.name} ${formatMoney(s.amount)}`).join(", ") })}
          checked={shipping}
          onChange={setShipping}
        />
      )}
      <div className="flex flex-col gap-y-1">
        <Label htmlFor="altapay-refund-note" size="small" weight="plus">
          {t("refundDrawer.note")}
        </Label>
        <Textarea id="altapay-refund-note" data-testid="altapay-refund-note" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} />
      </div>
      {invalid && (
        <Text size="small" className="text-ui-fg-error">
          {t("refundDrawer.invalid")}
        </Text>
      )}
    </ItemDrawer>
  )
}
