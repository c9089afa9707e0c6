/**
 * A payment link for the amount still due on the order (phone and e-mail orders): AltaPay's
 * hosted payment page, valid for the chosen time; paying it completes the usual AltaPay flow.
 * A store with several AltaPay registrations (one per terminal) picks the one to pay with.
 */
import { Button, Container, Copy, Heading, Select, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { useAdminText } from "../i18n/use-admin-text"
import { altapayProvidersQueryKey, createAltaPayPaymentLink, getAltaPayProviders, type AdminAltaPayPaymentLinkResponse } from "../lib/altapay-api"
import { formatDate, formatMoney } from "../lib/format"
import { defaultProviderId, providerLabel } from "../lib/providers"

const VALIDITY = [
  { value: String(60 * 60), label: "paymentLink.validity.hour" },
  { value: String(24 * 60 * 60), label: "paymentLink.validity.day" },
  { value: String(7 * 24 * 60 * 60), label: "paymentLink.validity.week" },
] as const

export function PaymentLinkSection({ orderId, paidWith }: { orderId: string; paidWith: string[] }) {
  const queryClient = useQueryClient()
  const { t, language } = useAdminText()
  const [validity, setValidity] = useState<string>(VALIDITY[1].value)
  const [link, setLink] = useState<AdminAltaPayPaymentLinkResponse | undefined>()
  const { data: providers = [] } = useQuery({ queryKey: altapayProvidersQueryKey, queryFn: getAltaPayProviders })
  const [chosen, setChosen] = useState<string | undefined>()
  const providerId = chosen ?? defaultProviderId(providers, paidWith)

  const mutation = useMutation({
    mutationFn: () => createAltaPayPaymentLink({ order_id: orderId, ...(providerId ? { provider_id: providerId } : {}), validity_seconds: Number(validity) }),
    onSuccess: (created) => {
      setLink(created)
      toast.success(t("paymentLink.created"), {
        description: t("paymentLink.createdDetail", { amount: formatMoney(created.amount), date: formatDate(created.payment_link.expires_at, language) }),
      })
    },
    onError: (error) => toast.error(t("paymentLink.failed"), { description: error instanceof Error ? error.message : String(error) }),
    // The order may have a new payment collection or session now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["orders"] }),
  })

  return (
    <Container className="divide-y p-0" data-testid="altapay-payment-link">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{t("paymentLink.title")}</Heading>
      </div>
      <div className="flex flex-col gap-y-3 px-6 py-4">
        <Text size="small" className="text-ui-fg-subtle">
          {t("paymentLink.intro")}
        </Text>
        {providers.length > 1 && providerId && (
          <div className="flex items-center gap-x-2" data-testid="altapay-link-provider">
            <Text size="small" className="text-ui-fg-subtle shrink-0">
              {t("paymentLink.payWith")}
            </Text>
            <Choice value={providerId} onChange={setChosen} options={providers.map((p) => ({ value: p.id, label: providerLabel(p) }))} className="min-w-0 flex-1" />
          </div>
        )}
        <div className="flex items-center gap-x-2">
          <Choice value={validity} onChange={setValidity} options={VALIDITY.map((v) => ({ value: v.value, label: t(v.label) }))} className="w-32" />
          <Button size="small" variant="secondary" data-testid="altapay-create-link" isLoading={mutation.isPending} onClick={() => mutation.mutate()}>
            {t("paymentLink.create")}
          </Button>
        </div>
        {link && (
          <div className="flex flex-col gap-y-1" data-testid="altapay-link-result">
            <div className="flex items-center gap-x-2">
              <a href={link.payment_link.url} target="_blank" rel="noreferrer" className="text-ui-fg-interactive txt-compact-small break-all">
                {link.payment_link.url}
              </a>
              <Copy content={link.payment_link.url} />
            </div>
            <Text size="xsmall" className="text-ui-fg-subtle">
              {t("paymentLink.expires", { amount: formatMoney(link.amount), date: formatDate(link.payment_link.expires_at, language) })}
              {providers.length > 1 ? ` · ${link.provider_id.replace(/^pp_altapay_/, "")}` : ""}
            </Text>
          </div>
        )}
      </div>
    </Container>
  )
}

/** A small select of labelled values. */
function Choice({
  value,
  onChange,
  options,
  className,
}: {
  value: string
  onChange: (value: string) => void
  options: Array<{ value: string; label: string }>
  className: string
}) {
  return (
    <Select value={value} onValueChange={onChange} size="small">
      <Select.Trigger className={className}>
        <Select.Value />
      </Select.Trigger>
      <Select.Content>
        {options.map((option) => (
          <Select.Item key={option.value} value={option.value}>
            {option.label}
          </Select.Item>
        ))}
      </Select.Content>
    </Select>
  )
}
