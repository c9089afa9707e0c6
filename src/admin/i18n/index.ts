/**
 * Medusa's admin loads this file (src/admin/i18n/index.ts, "Translate Admin Customizations", Medusa
 * 2.11.1+) and merges it into its i18next resources: our texts under the namespace `altapay`, per
 * language. Registering da and nb also makes them languages Medusa's admin accepts: its i18next
 * supports exactly the languages its resources have, and Medusa's own list has neither.
 */
import { LANGUAGES } from "../../lib/languages/languages"
import { ADMIN_CATALOGUES, ADMIN_NAMESPACE } from "./catalogues"

export default Object.fromEntries(LANGUAGES.map((language) => [language, { [ADMIN_NAMESPACE]: ADMIN_CATALOGUES[language] }]))
