/** Agreements: saved cards and merchant-started charges (set-up, charges, the card, the token that never prints). */
export { AgreementsApi } from "./api"
export { agreementCardOf, parseAgreementCallback, type AgreementCallback } from "./card"
export { SecretToken, secretTokenOf, REDACTED } from "./secret-token"
export * from "./types"
