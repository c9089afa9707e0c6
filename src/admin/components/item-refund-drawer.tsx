/**
 * The item-refund form: a quantity per item (up to what is still refundable), the shipping, a
 * note. The server computes the exact AltaPay lines and amount; the answer is shown as a toast,
 * AltaPay's own message when it refuses.
 */
import { Button, Checkbox, Drawer, Input, Label, Text, Textarea, toast } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { altapayQueryKey, refundAltaPayItems, type AdminAltaPayPayment, type ItemRefundInput } from "../lib/altapay-api"
import { formatMoney } from "../lib/format"

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  orderId: string
  payment: AdminAltaPayPayment
}

export function ItemRefundDrawer({ open, onOpenChange, orderId, payment }: Props) {
  const queryClient = useQueryClient()
  const [quantities, setQuantities] = useState<Record<string, string>>({})
  const [shipping, setShipping] = useState(false)
  const [note, setNote] = useState("")

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
      toast.success(refund.open ? "Refund sent to AltaPay (open)" : "Refunded", {
        description: refund.open ? `${formatMoney(refund.amount)}: AltaPay will settle it later.` : `${formatMoney(refund.amount)} refunded through AltaPay.`,
      })
      onOpenChange(false)
    },
    onError: (error) => {
      toast.error("Refund failed", { description: error instanceof Error ? error.message : String(error) })
    },
    onSettled: async () => {
      // Our panel and Medusa's own payment section both show the refund.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: altapayQueryKey(payment.id) }),
        queryClient.invalidateQueries({ queryKey: ["orders"] }),
        queryClient.invalidateQueries({ queryKey: ["orders", "detail", orderId] }),
      ])
    },
  })

  const items = payment.refundable.items.filter((item) => item.refundable_quantity > 0)
  const shippingLeft = payment.refundable.shipping.filter((s) => !s.refunded)
  const chosen = items
    .map((item) => ({ line_item_id: item.line_item_id, quantity: Number(quantities[item.line_item_id] || 0) }))
    .filter((item) => Number.isInteger(item.quantity) && item.quantity > 0)
  const invalid = items.some((item) => {
    const q = Number(quantities[item.line_item_id] || 0)
    return !Number.isInteger(q) || q < 0 || q > item.refundable_quantity
  })
  const nothing = chosen.length === 0 && !shipping

  const submit = () => {
    if (invalid || nothing) return
    mutation.mutate({ items: chosen, ...(shipping ? { shipping: true } : {}), ...(note.trim() ? { note: note.trim() } : {}) })
  }

  return (
    <Drawer open={open} onOpenChange={onOpenChange}>
      <Drawer.Content data-testid="altapay-refund-drawer">
        <Drawer.Header>
          <Drawer.Title>Refund items through AltaPay</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
          <Text size="small" className="text-ui-fg-subtle">
            AltaPay receives each item's own lines: its price, its tax and its share of promotions. Refundable on this payment: {formatMoney(payment.refundable.amount)}.
          </Text>
          {items.map((item) => (
            <div key={item.line_item_id} className="flex items-center justify-between gap-x-4">
              <div className="flex flex-col">
                <Label htmlFor={`altapay-qty-${item.line_item_id}`} size="small" weight="plus">
                  {item.title}
                </Label>
                <Text size="xsmall" className="text-ui-fg-subtle">
                  {item.refundable_quantity} of {item.quantity} refundable{item.sku ? ` · ${item.sku}` : ""}
                </Text>
              </div>
              <Input
                id={`altapay-qty-${item.line_item_id}`}
                data-testid={`altapay-qty-${item.line_item_id}`}
                className="w-20"
                type="number"
                min={0}
                max={item.refundable_quantity}
                step={1}
                placeholder="0"
                value={quantities[item.line_item_id] ?? ""}
                onChange={(e) => setQuantities((q) => ({ ...q, [item.line_item_id]: e.target.value }))}
              />
            </div>
          ))}
          {shippingLeft.length > 0 && (
            <div className="flex items-center gap-x-2">
              <Checkbox id="altapay-refund-shipping" data-testid="altapay-refund-shipping" checked={shipping} onCheckedChange={(v) => setShipping(v === true)} />
              <Label htmlFor="altapay-refund-shipping" size="small">
                Refund shipping ({shippingLeft.map((s) => `${s.name} ${formatMoney(s.amount)}`).join(", ")})
              </Label>
            </div>
          )}
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="altapay-refund-note" size="small" weight="plus">
              Note
            </Label>
            <Textarea id="altapay-refund-note" data-testid="altapay-refund-note" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} />
          </div>
          {invalid && (
            <Text size="small" className="text-ui-fg-error">
              Quantities must be whole numbers up to what is still refundable.
            </Text>
          )}
        </Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary">
              Cancel
            </Button>
          </Drawer.Close>
          <Button size="small" data-testid="altapay-refund-submit" isLoading={mutation.isPending} disabled={invalid || nothing} onClick={submit}>
            Refund
          </Button>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  )
}
