/**
 * medusa-config.ts of a Medusa store that registers AltaPay once per terminal: shoppers pick
 * "Card" or "MobilePay", each its own Medusa payment provider with its own terminal. Everything
 * else is as in medusa-config.example.ts (its comments say why); docs/merchant.md, "One
 * registration per terminal".
 *
 *   plugins   required: the return endpoint AltaPay posts the customer back to, the admin routes,
 *             the follow-up and payouts jobs (the provider refuses to start without it when
 *             successUrl/failureUrl are set)
 *   modules   the Payment module with two AltaPay registrations: id "card" -> pp_altapay_card
 *             (callback POST <MEDUSA_BACKEND_URL>/hooks/payment/altapay_card) and id "mobilepay"
 *             -> pp_altapay_mobilepay. The callback and return URLs follow the id: no providerId.
 */
import { ContainerRegistrationKeys, Modules, defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

// The storefront's public URL: customers who paid are sent there, and it is the storefront's CORS
// origin. Only outside production may it default to a local storefront.
if (!process.env.STORE_URL && process.env.NODE_ENV === "production") {
  throw new Error("STORE_URL is not set: set it to the storefront's public https:// address (customers who paid are sent there).")
}
const storeUrl = process.env.STORE_URL ?? "http://localhost:8000"
const landing = `${storeUrl}/api/altapay/landing?outcome={outcome}&cart_id={cart_id}&order_id={order_id}&message={message}`

/** One AltaPay registration: the provider entry for `id`, paying on `terminal`. */
const altapay = (id: string, terminal: string | undefined) => ({
  resolve: "medusa-payment-altapay/providers/altapay",
  id,
  options: {
    checkoutUrl: process.env.ALTAPAY_CHECKOUT_URL, // e.g. https://testgateway.altapaysecure.com
    gatewayUrl: process.env.ALTAPAY_GATEWAY_URL ?? process.env.ALTAPAY_CHECKOUT_URL,
    // The local sandbox's http:// URLs only (ALTAPAY_ALLOW_INSECURE_URLS=true); never against AltaPay.
    allowInsecureUrls: process.env.ALTAPAY_ALLOW_INSECURE_URLS === "true",
    username: process.env.ALTAPAY_USERNAME,
    password: process.env.ALTAPAY_PASSWORD,
    terminal,
    callbackSecret: process.env.ALTAPAY_CALLBACK_SECRET,
    // One secret serves both registrations: the key is derived per registration.
    paymentDataSecret: process.env.ALTAPAY_PAYMENT_DATA_SECRET,
    backendUrl: process.env.MEDUSA_BACKEND_URL,
    successUrl: landing,
    failureUrl: landing,
    // The payment page's language when the cart gives none, and the country sent with sessions.
    language: process.env.ALTAPAY_LANGUAGE ?? "da",
    country: process.env.ALTAPAY_COUNTRY ?? "DK",
  },
})

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS ?? storeUrl,
      adminCors: process.env.ADMIN_CORS ?? "http://localhost:9000",
      authCors: process.env.AUTH_CORS ?? `${storeUrl},http://localhost:9000`,
      jwtSecret: process.env.JWT_SECRET || "supersecret",
      cookieSecret: process.env.COOKIE_SECRET || "supersecret",
    },
  },
  plugins: [{ resolve: "medusa-payment-altapay", options: {} }],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      dependencies: [ContainerRegistrationKeys.QUERY, Modules.CACHE, Modules.LOCKING],
      options: {
        providers: [altapay("card", process.env.ALTAPAY_TERMINAL), altapay("mobilepay", process.env.ALTAPAY_MOBILEPAY_TERMINAL)],
      },
    },
  ],
})
