import { Metadata } from "next"
import { cookies } from "next/headers"
import { notFound } from "next/navigation"

import { listAltaPaySavedCards } from "@lib/data/altapay-saved-cards"
import { retrieveCustomer } from "@lib/data/customer"
import { altapayLanguage, altapayText } from "@lib/util/altapay-i18n"
import AltaPaySavedCards from "@modules/account/components/altapay-saved-cards"

type Props = { params: Promise<{ countryCode: string }> }

/** The shopper's language: the starter's locale cookie (its language menu), else the URL's country. */
async function pageLanguage(params: Props["params"]) {
  const { countryCode } = await params
  const locale = (await cookies()).get("_medusa_locale")?.value
  return altapayLanguage({ locale, countryCode })
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const language = await pageLanguage(params)
  return {
    title: altapayText(language, "savedCards"),
    description: altapayText(language, "savedCardsDescription"),
  }
}

/** The account's "Saved cards" (medusa-payment-altapay storefront kit): the cards saved at AltaPay. */
export default async function SavedCards({ params }: Props) {
  const customer = await retrieveCustomer()
  if (!customer) {
    notFound()
  }
  const language = await pageLanguage(params)
  const cards = await listAltaPaySavedCards()

  return (
    <div className="w-full" data-testid="saved-cards-page-wrapper">
      <div className="mb-8 flex flex-col gap-y-4">
        <h1 className="text-2xl-semi">{altapayText(language, "savedCards")}</h1>
        <p className="text-base-regular">
          {altapayText(language, "savedCardsIntro")}
        </p>
      </div>
      {cards ? (
        <AltaPaySavedCards cards={cards} language={language} />
      ) : (
        <p className="text-base-regular" role="alert">
          {altapayText(language, "savedCardsNotLoaded")}
        </p>
      )}
    </div>
  )
}
