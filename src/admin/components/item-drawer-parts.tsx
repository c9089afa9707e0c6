/** What the item drawers (Refund items, Capture items) are both made of: the drawer, a row per item, the shipping box, the refresh. */
import { Button, Checkbox, Drawer, Input, Label, Text } from "@medusajs/ui"
import { useQueryClient } from "@tanstack/react-query"
import type { ReactNode } from "react"
import { useAdminText } from "../i18n/use-admin-text"
import { altapayQueryKey } from "../lib/altapay-api"

interface QuantityRowProps {
  /** The input's id and test id, e.g. `altapay-qty-<line item id>`. */
  inputId: string
  title: string
  /** Under the title, e.g. "1 of 2 refundable · SKU". */
  detail: string
  /** The most that may be entered. */
  max: number
  value: string
  onChange: (value: string) => void
  /** All or nothing (Klarna and invoice captures): a box for the whole `max` instead of a number. */
  whole?: boolean
}

export function QuantityRow({ inputId, title, detail, max, value, onChange, whole }: QuantityRowProps) {
  const { t } = useAdminText()
  return (
    <div className="flex items-center justify-between gap-x-4">
      <div className="flex flex-col">
        <Label htmlFor={inputId} size="small" weight="plus">
          {title}
        </Label>
        <Text size="xsmall" className="text-ui-fg-subtle">
          {detail}
        </Text>
      </div>
      {whole ? (
        <div className="flex items-center gap-x-2">
          <Checkbox id={inputId} data-testid={inputId} checked={value === String(max)} onCheckedChange={(v) => onChange(v === true ? String(max) : "")} />
          <Text size="small">{t("drawer.allUnits", { count: max })}</Text>
        </div>
      ) : (
        <Input
          id={inputId}
          data-testid={inputId}
          className="w-20"
          type="number"
          min={0}
          max={max}
          step={1}
          placeholder="0"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </div>
  )
}

export function ShippingCheckbox({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="flex items-center gap-x-2">
      <Checkbox id={id} data-testid={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} />
      <Label htmlFor={id} size="small">
        {label}
      </Label>
    </div>
  )
}

interface ItemDrawerProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  testId: string
  title: string
  /** The submit button: its test id, label and state. */
  submit: { testId: string; label: string; loading: boolean; disabled: boolean; onClick: () => void }
  children: ReactNode
}

/** The drawer around an item form: title, scrolling body, Cancel and the submit button. */
export function ItemDrawer({ open, onOpenChange, testId, title, submit, children }: ItemDrawerProps) {
  const { t } = useAdminText()
  return (
    <Drawer open={open} onOpenChange={onOpenChange}>
      <Drawer.Content data-testid={testId}>
        <Drawer.Header>
          <Drawer.Title>{title}</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">{children}</Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary">
              {t("common.cancel")}
            </Button>
          </Drawer.Close>
          <Button size="small" data-testid={submit.testId} isLoading={submit.loading} disabled={submit.disabled} onClick={submit.onClick}>
            {submit.label}
          </Button>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  )
}

/** After a refund or capture: our panel (and what is left to capture, under the same key) and Medusa's own payment section. */
export function useRefreshPayment(paymentId: string, orderId: string): () => Promise<void> {
  const queryClient = useQueryClient()
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: altapayQueryKey(paymentId) }),
      queryClient.invalidateQueries({ queryKey: ["orders"] }),
      queryClient.invalidateQueries({ queryKey: ["orders", "detail", orderId] }),
    ])
  }
}
