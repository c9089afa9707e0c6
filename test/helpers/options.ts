/** The fewest provider options that parse: a store that sets nothing else gets every default. */
export const MINIMAL_OPTIONS = {
  checkoutUrl: "https://testgateway.altapaysecure.com",
  gatewayUrl: "https://testgateway.altapaysecure.com",
  username: "api-user",
  password: "api-password",
  backendUrl: "https://shop.example",
  // Required against AltaPay (https://), unlike against the local sandbox.
  paymentDataSecret: "minimal-options-payment-data-secret-0123456789",
}
