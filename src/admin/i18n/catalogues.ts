/**
 * The admin's catalogue: one complete map per language, typed by the English keys, and the
 * language a Medusa admin user chose (Profile → Language, kept by Medusa's i18next in the browser's
 * `lng` cookie and localStorage), English where it is not one of ours. No React here: the unit tests
 * use it as the widgets do.
 */
import { languageOf, type Language } from "../../lib/languages/languages"
import { translator, type Catalogues, type TextKey, type TextValues } from "../../lib/languages/text"
import { da } from "./da"
import { de } from "./de"
import { en } from "./en"
import { fi } from "./fi"
import { nb } from "./nb"
import { sv } from "./sv"

/** Our i18next namespace in Medusa's admin (the sidebar label's `translationNs`). */
export const ADMIN_NAMESPACE = "altapay"

export const ADMIN_CATALOGUES: Catalogues<typeof en> = { en, da, sv, nb, fi, de }

export type AdminTextKey = TextKey<typeof en>
export type AdminT = (key: AdminTextKey, values?: TextValues) => string

/** Medusa's language code ("da", "sv", "enGB", "ptBR") as one of ours; English for the rest. */
export const adminLanguage = (code: string | undefined): Language => languageOf(code) ?? "en"

export const adminTranslator = (language: Language): AdminT => translator(ADMIN_CATALOGUES, language)
