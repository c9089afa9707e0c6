/**
 * The item-capture form: a quantity per item (up to what is left to capture; for Klarna and
 * invoice payments the whole rest of an item or nothing), the shipping, and the amount the
 * server previews for that choice. AltaPay receives the items' lines as they were reserved, and
 * Medusa records a capture of the same amount.
 */
import { Alert, Text, toast } from "@medusajs/ui"
import { keepPreviousData, useMutation, useQuery, type UseQueryResult } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { useAdminText } from "../i18n/use-admin-text"
import {
  captureAltaPayItems,
  captureStateQueryKey,
  getItemCaptureState,
  previewItemCapture,
  type AdminAltaPayPayment,
  type ItemCaptureInput,
  type ItemCapturePreview,
} from "../lib/altapay-api"
import { formatMinor } from "../lib/format"
import { chosenQuantities } from "../lib/item-quantities"
import { ItemDrawer, QuantityRow, ShippingCheckbox, useRefreshPayment } from "./item-drawer-parts"

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  orderId: string
  payment: AdminAltaPayPayment
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

export function ItemCaptureDrawer({ open, onOpenChange, orderId, payment }: Props) {
  const refresh = useRefreshPayment(payment.id, orderId)
  const [quantities, setQuantities] = useState<Record<string, string>>({})
  const [shipping, setShipping] = useState(false)
  const { t } = useAdminText()

  useEffect(() => {
    if (open) {
      setQuantities({})
      setShipping(false)
    }
  }, [open])

  const state = useQuery({ queryKey: captureStateQueryKey(payment.id), queryFn: () => getItemCaptureState(payment.id), enabled: open })
  const currency = payment.currency_code
  const rows = (state.data?.items ?? []).map((item) => ({ ...item, left: item.quantity - item.captured_quantity })).filter((item) => item.left > 0)
  const shippingLeft = state.data?.shipping && !state.data.shipping.captured ? state.data.shipping : null
  const { items: chosen, invalid } = chosenQuantities(rows, quantities)
  const request: ItemCaptureInput = { items: chosen, ...(shipping && shippingLeft ? { shipping: true } : {}) }
  const nothing = chosen.length === 0 && !request.shipping

  // The amount is the server's: the items' reserved lines, exactly what AltaPay will receive.
  const preview = useQuery({
    queryKey: [...captureStateQueryKey(payment.id), "preview", request],
    queryFn: () => previewItemCapture(payment.id, request),
    enabled: open && !!state.data?.available && !invalid && !nothing,
    placeholderData: keepPreviousData,
    retry: false,
  })
  const ready = !invalid && !nothing && preview.isSuccess && !preview.isPlaceholderData

  const mutation = useMutation({
    mutationFn: (input: ItemCaptureInput) => captureAltaPayItems(payment.id, input),
    onSuccess: async ({ capture }) => {
      toast.success(t("captureDrawer.done"), { description: t("captureDrawer.doneDetail", { amount: formatMinor(t, capture.amount_minor, capture.currency_code) }) })
      onOpenChange(false)
    },
    onError: (error) => {
      toast.error(t("captureDrawer.failed"), { description: message(error) })
    },
    onSettled: refresh,
  })

  const submit = () => {
    if (ready) mutation.mutate(request)
  }

  return (
    <ItemDrawer
      open={open}
      onOpenChange={onOpenChange}
      testId="altapay-capture-drawer"
      title={t("captureDrawer.title")}
      submit={{ testId: "altapay-capture-submit", label: t("captureDrawer.submit"), loading: mutation.isPending, disabled: !ready, onClick: submit }}
    >
      {state.isLoading && (
        <Text size="small" className="text-ui-fg-subtle">
          {t("captureDrawer.loading")}
        </Text>
      )}
      {state.error && <Alert variant="error">{message(state.error)}</Alert>}
      {state.data && !state.data.available && (
        <Alert variant="warning" data-testid="altapay-capture-unavailable">
          {state.data.reason ?? t("captureDrawer.unavailable")}
        </Alert>
      )}
      {state.data?.available && (
        <>
          <Text size="small" className="text-ui-fg-subtle">
            {t("captureDrawer.intro", { amount: formatMinor(t, state.data.remaining_minor, currency) })}
          </Text>
          {state.data.whole_items_only && (
            <Text size="small" data-testid="altapay-capture-whole-items">
              {t("captureDrawer.wholeItems")}
            </Text>
          )}
          {rows.map((item) => (
            <QuantityRow
              key={item.line_item_id}
              inputId={`altapay-capture-qty-${item.line_item_id}`}
              title={item.title}
              detail={t("captureDrawer.itemDetail", { left: item.left, quantity: item.quantity })}
              max={item.left}
              whole={state.data.whole_items_only}
              value={quantities[item.line_item_id] ?? ""}
              onChange={(value) => setQuantities((q) => ({ ...q, [item.line_item_id]: value }))}
            />
          ))}
          {shippingLeft && (
            <ShippingCheckbox
              id="altapay-capture-shipping"
              label={t("captureDrawer.shipping", { amount: formatMinor(t, shippingLeft.amount_minor, currency) })}
              checked={shipping}
              onChange={setShipping}
            />
          )}
          {invalid && (
            <Text size="small" className="text-ui-fg-error">
              {t("captureDrawer.invalid")}
            </Text>
          )}
          {!invalid && !nothing && <CaptureAmount preview={preview} />}
        </>
      )}
    </ItemDrawer>
  )
}

/** The previewed amount, or why these items cannot be captured (the server's message). */
function CaptureAmount({ preview }: { preview: UseQueryResult<ItemCapturePreview> }) {
  const { t } = useAdminText()
  if (preview.error) {
    return (
      <Text size="small" className="text-ui-fg-error" data-testid="altapay-capture-preview-error">
        {message(preview.error)}
      </Text>
    )
  }
  if (!preview.data) {
    return (
      <Text size="small" className="text-ui-fg-subtle">
        {t("captureDrawer.workingOut")}
      </Text>
    )
  }
  return (
    <div className="flex flex-col gap-y-1">
      <div className="flex items-center justify-between">
        <Text size="small" weight="plus">
          {t("captureDrawer.amount")}
        </Text>
        <Text size="small" weight="plus" data-testid="altapay-capture-amount" data-stale={preview.isPlaceholderData ? "true" : undefined}>
          {formatMinor(t, preview.data.amount_minor, preview.data.currency_code)}
        </Text>
      </div>
      <Text size="xsmall" className="text-ui-fg-subtle">
        {t(preview.data.final ? "captureDrawer.orderLinesFinal" : "captureDrawer.orderLines", { count: preview.data.order_lines.length })}
      </Text>
    </div>
  )
}
