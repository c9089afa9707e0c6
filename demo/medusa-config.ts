/**
 * The demo store: medusa-config.example.ts (repository root) with defaults that point at the
 * local AltaPay sandbox and the embedded Postgres that `npm run demo` starts. Every value can be
 * overridden with the same environment variables a real store uses.
 */
import { ContainerRegistrationKeys, Modules, defineConfig } from "@medusajs/framework/utils"

const port = process.env.DEMO_MEDUSA_PORT ?? "9000"
const backendUrl = process.env.MEDUSA_BACKEND_URL ?? `http://localhost:${port}`
const sandboxUrl = `http://127.0.0.1:${process.env.DEMO_SANDBOX_PORT ?? "8787"}`
const storeUrl = process.env.STORE_URL ?? "http://localhost:8000"
const databaseUrl = process.env.DATABASE_URL ?? `postgres://postgres:postgres@localhost:${process.env.DEMO_POSTGRES_PORT ?? "5433"}/medusa_demo`
const redisUrl = process.env.REDIS_URL || undefined

/**
 * With REDIS_URL set, the store runs as one of several Medusa servers would: Medusa's Redis
 * cache (the shared MERCHANT token), locking (one capture/refund per AltaPay transaction at a
 * time, across servers), event bus and workflow engine. Without it: Medusa's in-memory modules.
 * The same modules Medusa itself picks for a Redis-backed deployment (defineConfig).
 */
const redisModules = redisUrl
  ? [
      { resolve: "@medusajs/medusa/cache-redis", options: { redisUrl } },
      { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl } },
      { resolve: "@medusajs/medusa/workflow-engine-redis", options: { redis: { redisUrl } } },
      {
        resolve: "@medusajs/medusa/locking",
        options: { providers: [{ resolve: "@medusajs/medusa/locking-redis", id: "locking-redis", is_default: true, options: { redisUrl } }] },
      },
    ]
  : []

/** The AltaPay provider registered as pp_altapay_<id> for one terminal (README: Storefronts). */
function altapay(id: string, terminal: string) {
  return {
    resolve: "medusa-payment-altapay/providers/altapay",
    id,
    options: {
      checkoutUrl: process.env.ALTAPAY_CHECKOUT_URL ?? sandboxUrl,
      gatewayUrl: process.env.ALTAPAY_GATEWAY_URL ?? process.env.ALTAPAY_CHECKOUT_URL ?? sandboxUrl,
      // The local sandbox speaks http only; a real AltaPay is https.
      allowInsecureUrls: process.env.ALTAPAY_ALLOW_INSECURE_URLS === "true" || !process.env.ALTAPAY_CHECKOUT_URL,
      username: process.env.ALTAPAY_USERNAME ?? "demo-shop@altapay.demo",
      password: process.env.ALTAPAY_PASSWORD ?? "demo-sandbox-password",
      terminal,
      callbackSecret: process.env.ALTAPAY_CALLBACK_SECRET ?? "demo-callback-secret-0123456789",
      // Optional against the local sandbox; against AltaPay (ALTAPAY_CHECKOUT_URL) the provider requires it.
      paymentDataSecret: process.env.ALTAPAY_PAYMENT_DATA_SECRET,
      backendUrl,
      providerId: id,
      // The storefront kit's landing page (storefronts/nextjs-starter): AltaPay posts the customer's
      // return to this plugin on Medusa, which completes the cart and sends the customer there.
      successUrl: `${storeUrl}/api/altapay/landing?outcome={outcome}&cart_id={cart_id}&order_id={order_id}&message={message}`,
      failureUrl: `${storeUrl}/api/altapay/landing?outcome={outcome}&cart_id={cart_id}&order_id={order_id}&message={message}`,
      language: "da",
      country: "DK",
      // Saved cards (account holders, the customer's cards) on the card registration.
      savedCards: { enabled: id === "card" },
      // A last look at the cart: AltaPay asks the store just before it charges a card.
      verifyOrder: id === "card",
    },
  }
}

module.exports = defineConfig({
  projectConfig: {
    databaseUrl,
    // Admin sessions in Redis too, so a login holds on every server.
    ...(redisUrl ? { redisUrl } : {}),
    http: {
      storeCors: process.env.STORE_CORS ?? `${storeUrl},${backendUrl}`,
      adminCors: process.env.ADMIN_CORS ?? backendUrl,
      authCors: process.env.AUTH_CORS ?? `${storeUrl},${backendUrl}`,
      jwtSecret: process.env.JWT_SECRET ?? "demo-jwt-secret",
      cookieSecret: process.env.COOKIE_SECRET ?? "demo-cookie-secret",
    },
  },
  // `--once` runs the flow without the admin UI (no Vite dev server to start).
  admin: { disable: process.env.DEMO_ADMIN === "false", backendUrl },
  plugins: [{ resolve: "medusa-payment-altapay", options: {} }],
  modules: [
    ...redisModules,
    {
      resolve: "@medusajs/medusa/payment",
      dependencies: [ContainerRegistrationKeys.QUERY, Modules.CACHE, Modules.LOCKING],
      options: {
        // One registration per AltaPay terminal: the storefront shows each as its own payment option.
        providers: [
          altapay("card", process.env.ALTAPAY_TERMINAL ?? "AltaPay Sandbox Test Terminal"),
          altapay("mobilepay", process.env.ALTAPAY_MOBILEPAY_TERMINAL ?? "MobilePay Sandbox Terminal"),
          // The sandbox's Apple Pay terminal (walletTerminals); a real store asks AltaPay for one (docs/payment-methods.md).
          altapay("applepay", process.env.ALTAPAY_APPLEPAY_TERMINAL ?? "Apple Pay Sandbox Terminal"),
        ],
      },
    },
  ],
})
