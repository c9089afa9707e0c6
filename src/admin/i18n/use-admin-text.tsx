/**
 * The widgets' and pages' texts in the language the admin user chose in Medusa's admin (read
 * from Medusa's own i18next, so a change of language re-renders them), English otherwise.
 *
 *   const { t, tx, language } = useAdminText()
 *   t("panel.reserved")                              // "Reserveret"
 *   tx("payouts.status.paidOutIn", { file: <Link…/>, date })  // words around elements
 */
import { Fragment, useMemo, type ReactNode } from "react"
import { useTranslation } from "react-i18next"
import type { Language } from "../../lib/languages/languages"
import { templateOf, templateParts, textAt, type Text } from "../../lib/languages/text"
import { ADMIN_CATALOGUES, adminLanguage, adminTranslator, type AdminT, type AdminTextKey } from "./catalogues"

export interface AdminText {
  /** en, da, sv, nb, fi or de: also the locale dates are written in. */
  language: Language
  t: AdminT
  /** A text whose placeholders are elements (a link in a sentence); `count` picks a plural. */
  tx: (key: AdminTextKey, values: Record<string, ReactNode> & { count?: number }) => ReactNode
}

export function useAdminText(): AdminText {
  const { i18n } = useTranslation()
  const language = adminLanguage(i18n.language)
  return useMemo(() => {
    const tx: AdminText["tx"] = (key, values) => {
      const text = (textAt(ADMIN_CATALOGUES[language], key) ?? textAt(ADMIN_CATALOGUES.en, key)) as Text
      const parts = templateParts(templateOf(text, { count: values.count ?? 0 }))
      return parts.map((part, i) => <Fragment key={i}>{typeof part === "string" ? part : values[part.name]}</Fragment>)
    }
    return { language, t: adminTranslator(language), tx }
  }, [language])
}
