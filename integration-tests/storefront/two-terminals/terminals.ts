/** The sandbox's two terminals, one per provider registration of two-terminals/medusa-config.ts. */
export const TERMINALS = { card: "AltaPay Sandbox Test Terminal", mobilepay: "MobilePay Sandbox Terminal" } as const
