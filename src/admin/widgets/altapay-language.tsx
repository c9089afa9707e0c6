/**
 * Danish and Norwegian for the admin user (the profile page): Medusa 2.21's language menu has
 * neither, and the AltaPay widgets and pages speak both. Choosing one sets Medusa's own admin
 * language, as the profile's menu does (Medusa's i18next keeps it in this browser); Medusa's own
 * texts, which Medusa has not translated, show in English. The profile's menu goes back.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Button, Container, Heading, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { useAdminText } from "../i18n/use-admin-text"

/** Ours, and missing from Medusa's own list. */
const EXTRA_LANGUAGES = ["da", "nb"] as const

const AltaPayLanguage = () => {
  const { i18n } = useTranslation()
  const { t, language } = useAdminText()
  return (
    <Container className="divide-y p-0" data-testid="altapay-language">
      <div className="px-6 py-4">
        <Heading level="h2">{t("language.title")}</Heading>
      </div>
      <div className="flex flex-col gap-y-3 px-6 py-4">
        <Text size="small" className="text-ui-fg-subtle">
          {t("language.intro")}
        </Text>
        <div className="flex gap-x-2">
          {EXTRA_LANGUAGES.map((code) => (
            <Button
              key={code}
              size="small"
              variant={language === code ? "primary" : "secondary"}
              data-testid={`altapay-language-${code}`}
              onClick={() => void i18n.changeLanguage(code)}
            >
              {t(`language.names.${code}`)}
            </Button>
          ))}
        </div>
      </div>
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "profile.details.after",
  id: "medusa-payment-altapay:language",
})

export default AltaPayLanguage
