/**
 * The app-payment suite on a store whose one AltaPay registration is a Swish
 * terminal (paymentMethod "swish", the sandbox's wallet terminals on), so AltaPay captures each
 * payment as it is paid and app payments can be approved later or cancelled in the app.
 */
import { STORE_APP_DIR, useAltaPayStore } from "../../tools/test-store/store-app/altapay-store"
import { storeSuites } from "../../tools/test-store/store-app/runner"
import appPayments, { SWISH_TERMINAL } from "../admin/app-payments.suite"

jest.setTimeout(180_000)

useAltaPayStore({ terminal: SWISH_TERMINAL, paymentMethod: "swish" }, { walletTerminals: true })

storeSuites({
  cwd: STORE_APP_DIR,
  suites: { "app payments (Swish)": appPayments },
})
