/**
 * medusa-config.ts of a Medusa store that takes payments with AltaPay. Copy what you need into
 * your store's medusa-config.ts and set the environment variables (README: "Install into a store").
 *
 *   plugins   required: the return endpoint AltaPay posts the customer back to (successUrl/failureUrl;
 *             the provider refuses to start without the plugin then), store and admin routes, order
 *             widget, follow-up and payouts jobs
 *   modules   the Payment module with the AltaPay provider (id "altapay" -> pp_altapay_altapay,
 *             notification callback POST <MEDUSA_BACKEND_URL>/hooks/payment/altapay_altapay)
 */
import { ContainerRegistrationKeys, Modules, defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

// The storefront's public URL: customers who paid are sent there, and it is the storefront's CORS
// origin. Only outside production may it default to a local storefront.
if (!process.env.STORE_URL && process.env.NODE_ENV === "production") {
  throw new Error("STORE_URL is not set: set it to the storefront's public https:// address (customers who paid are sent there).")
}
const storeUrl = process.env.STORE_URL ?? "http://localhost:8000"

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
      // Query: order lines for sessions made without the plugin's store route, and for refunds.
      // Cache + locking: one MERCHANT token and one refund at a time across server instances.
      dependencies: [ContainerRegistrationKeys.QUERY, Modules.CACHE, Modules.LOCKING],
      options: {
        providers: [
          {
            resolve: "medusa-payment-altapay/providers/altapay",
            id: "altapay",
            options: {
              checkoutUrl: process.env.ALTAPAY_CHECKOUT_URL, // e.g. https://testgateway.altapaysecure.com
              gatewayUrl: process.env.ALTAPAY_GATEWAY_URL ?? process.env.ALTAPAY_CHECKOUT_URL,
              // The local sandbox's http:// URLs need this (ALTAPAY_ALLOW_INSECURE_URLS=true): without it the
              // provider refuses them and the Payment module does not load. Never against AltaPay (https://):
              // credentials and tokens would travel in clear text.
              allowInsecureUrls: process.env.ALTAPAY_ALLOW_INSECURE_URLS === "true",
              username: process.env.ALTAPAY_USERNAME,
              password: process.env.ALTAPAY_PASSWORD,
              terminal: process.env.ALTAPAY_TERMINAL,
              callbackSecret: process.env.ALTAPAY_CALLBACK_SECRET,
              // Seals the payment data shoppers see. Required against AltaPay (not the local sandbox):
              // `openssl rand -hex 32`, the same value on every server of the store.
              paymentDataSecret: process.env.ALTAPAY_PAYMENT_DATA_SECRET,
              // Public URL of this server: AltaPay posts its callbacks here.
              backendUrl: process.env.MEDUSA_BACKEND_URL,
              // The storefront's landing page: AltaPay posts the customer's return to this plugin
              // (<backendUrl>/altapay/return/<id>/success|failure), which completes the cart and
              // sends the customer here (the Next.js starter kit's page, storefronts/nextjs-starter).
              successUrl: `${storeUrl}/api/altapay/landing?outcome={outcome}&cart_id={cart_id}&order_id={order_id}&message={message}`,
              failureUrl: `${storeUrl}/api/altapay/landing?outcome={outcome}&cart_id={cart_id}&order_id={order_id}&message={message}`,
              // flow "redirect" (the default): the provider makes the payment page for Medusa's
              // standard storefront calls; the plugin's store route still serves custom checkouts.
              // Unset: a Danish payment page when the cart names no language, and country DK sent
              // with every session. Set ALTAPAY_LANGUAGE / ALTAPAY_COUNTRY for another market.
              language: process.env.ALTAPAY_LANGUAGE ?? "da",
              country: process.env.ALTAPAY_COUNTRY ?? "DK",
            },
          },
        ],
      },
    },
  ],
})
