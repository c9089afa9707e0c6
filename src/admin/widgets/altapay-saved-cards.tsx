/**
 * AltaPay saved cards on the customer page: the customer's cards on AltaPay agreements (masked
 * number, expiry, scheme, registration, when saved), each with Delete. Renders nothing for a
 * customer without saved cards.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Button, Container, Heading, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { formatDate } from "../lib/format"
import { deleteSavedCard, formatExpiry, getCustomerSavedCards, savedCardsQueryKey, type AdminSavedCard } from "../lib/saved-cards-api"

const AltaPaySavedCards = ({ data: customer }: DetailWidgetProps<AdminCustomer>) => {
  const queryClient = useQueryClient()
  const prompt = usePrompt()
  const { data: cards = [] } = useQuery({ queryKey: savedCardsQueryKey(customer.id), queryFn: () => getCustomerSavedCards(customer.id) })
  const removal = useMutation({
    mutationFn: (card: AdminSavedCard) => deleteSavedCard(card.id),
    onSuccess: (_deleted, card) => toast.success("Saved card deleted", { description: `${card.scheme ?? "Card"} ${card.masked_pan}` }),
    onError: (error) => toast.error("Could not delete the saved card", { description: error instanceof Error ? error.message : String(error) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: savedCardsQueryKey(customer.id) }),
  })
  if (cards.length === 0) return null

  const confirmDelete = async (card: AdminSavedCard) => {
    const confirmed = await prompt({
      title: "Delete saved card?",
      description: `${card.masked_pan} will no longer be offered to the customer or charged from Medusa.`,
      confirmText: "Delete",
      cancelText: "Cancel",
    })
    if (confirmed) removal.mutate(card)
  }

  return (
    <Container className="divide-y p-0" data-testid="altapay-saved-cards">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">AltaPay saved cards</Heading>
      </div>
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>Card</Table.HeaderCell>
            <Table.HeaderCell>Expires</Table.HeaderCell>
            <Table.HeaderCell>Registration</Table.HeaderCell>
            <Table.HeaderCell>Saved</Table.HeaderCell>
            <Table.HeaderCell />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {cards.map((card) => (
            <Table.Row key={card.id} data-testid="altapay-saved-card">
              <Table.Cell>
                <Text size="small">
                  {card.scheme ?? "Card"} {card.masked_pan}
                </Text>
              </Table.Cell>
              <Table.Cell>{formatExpiry(card.expiry)}</Table.Cell>
              <Table.Cell>
                {card.provider_id.replace(/^pp_altapay_/, "")} · {card.currency}
              </Table.Cell>
              <Table.Cell>{formatDate(card.created_at)}</Table.Cell>
              <Table.Cell className="text-right">
                <Button size="small" variant="secondary" isLoading={removal.isPending && removal.variables?.id === card.id} onClick={() => void confirmDelete(card)}>
                  Delete
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
