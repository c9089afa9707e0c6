import { Metadata } from "next"
import { notFound } from "next/navigation"

import { listAltaPaySavedCards } from "@lib/data/altapay-saved-cards"
import { retrieveCustomer } from "@lib/data/customer"
import AltaPaySavedCards from "@modules/account/components/altapay-saved-cards"

export const metadata: Metadata = {
  title: "Saved cards",
  description: "View and delete your saved cards",
}

/** The account's "Saved cards" (medusa-payment-altapay storefront kit): the cards saved at AltaPay. */
export default async function SavedCards() {
  const customer = await retrieveCustomer()
  if (!customer) {
    notFound()
  }
  const cards = await listAltaPaySavedCards()

  return (
    <div className="w-full" data-testid="saved-cards-page-wrapper">
      <div className="mb-8 flex flex-col gap-y-4">
        <h1 className="text-2xl-semi">Saved cards</h1>
        <p className="text-base-regular">
          Cards you chose to save while paying. Pick one at checkout to pay
          without entering it again; delete those you no longer want kept.
        </p>
      </div>
      {cards ? (
        <AltaPaySavedCards cards={cards} />
      ) : (
        <p className="text-base-regular" role="alert">
          Your saved cards could not be loaded. Please reload the page.
        </p>
      )}
    </div>
  )
}
