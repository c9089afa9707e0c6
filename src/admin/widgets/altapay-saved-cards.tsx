/**
 * AltaPay saved cards on the customer page: the customer's cards on AltaPay agreements (masked
 * number, expiry, scheme, registration, when saved), each with Delete. Renders nothing for a
 * customer without saved cards.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Button, Container, Heading, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useAdminText } from "../i18n/use-admin-text"
import { formatDate } from "../lib/format"
import { deleteSavedCard, formatExpiry, getCustomerSavedCards, savedCardsQueryKey, type AdminSavedCard } from "../lib/saved-cards-api"

const AltaPaySavedCards = ({ data: customer }: DetailWidgetProps<AdminCustomer>) => {
  const queryClient = useQueryClient()
  const prompt = usePrompt()
  const { t, language } = useAdminText()
  const cardName = (card: AdminSavedCard) => `${card.scheme ?? t("common.card")} ${card.masked_pan}`
  const { data: cards = [] } = useQuery({ queryKey: savedCardsQueryKey(customer.id), queryFn: () => getCustomerSavedCards(customer.id) })
  const removal = useMutation({
    mutationFn: (card: AdminSavedCard) => deleteSavedCard(card.id),
    onSuccess: (_deleted, card) => toast.success(t("savedCards.deleted"), { description: cardName(card) }),
    onError: (error) => toast.error(t("savedCards.failed"), { description: error instanceof Error ? error.message : String(error) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: savedCardsQueryKey(customer.id) }),
  })
  if (cards.length === 0) return null

  const confirmDelete = async (card: AdminSavedCard) => {
    const confirmed = await prompt({
      title: t("savedCards.confirmTitle"),
      description: t("savedCards.confirmText", { card: card.masked_pan }),
      confirmText: t("common.delete"),
      cancelText: t("common.cancel"),
    })
    if (confirmed) removal.mutate(card)
  }

  return (
    <Container className="divide-y p-0" data-testid="altapay-saved-cards">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{t("savedCards.title")}</Heading>
      </div>
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t("savedCards.card")}</Table.HeaderCell>
            <Table.HeaderCell>{t("savedCards.expires")}</Table.HeaderCell>
            <Table.HeaderCell>{t("savedCards.registration")}</Table.HeaderCell>
            <Table.HeaderCell>{t("savedCards.saved")}</Table.HeaderCell>
            <Table.HeaderCell />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {cards.map((card) => (
            <Table.Row key={card.id} data-testid="altapay-saved-card">
              <Table.Cell>
                <Text size="small">{cardName(card)}</Text>
              </Table.Cell>
              <Table.Cell>{formatExpiry(card.expiry)}</Table.Cell>
              <Table.Cell>
                {card.provider_id.replace(/^pp_altapay_/, "")} · {card.currency}
              </Table.Cell>
              <Table.Cell>{formatDate(card.created_at, language)}</Table.Cell>
              <Table.Cell className="text-right">
                <Button size="small" variant="secondary" isLoading={removal.isPending && removal.variables?.id === card.id} onClick={() => void confirmDelete(card)}>
                  {t("common.delete")}
                </Button>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "customer.details.after",
  id: "medusa-payment-altapay:saved-cards",
})

export default AltaPaySavedCards
