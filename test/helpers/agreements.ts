/** A saved card at the sandbox (an agreement set up and confirmed) and the one line a charge of an amount due sends. */
import type { OrderLine } from "../../src/altapay"
import type { SandboxPair } from "./sandbox"

let counter = 0

/** The agreement id of a card saved at the sandbox; `card` picks its expiry. */
export async function savedCardAgreement(pair: SandboxPair, card: { expiryMonth?: string; expiryYear?: string } = {}): Promise<string> {
  const request = await pair.client.agreements.setupAgreement({
    terminal: "AltaPay Sandbox Test Terminal",
    shopOrderId: `agr-${Date.now().toString(36)}-${counter++}`,
    amountMinor: 100,
    currency: "DKK",
    agreement: { type: "unscheduled", unscheduledType: "charge" },
    callbacks: {},
  })
  const { agreementId } = await pair.sandbox.agreements.submit(request.paymentRequestId, card)
  if (!agreementId) throw new Error("the sandbox declined the set-up")
  return agreementId
}

/** The line of a charge for what order #7 still owes. */
export const amountDueLine = (amountMinor: number): OrderLine => ({
  description: "Amount due on order #7",
  itemId: "due-7",
  quantity: 1,
  unitPriceMinor: amountMinor,
  taxAmountMinor: 0,
  taxPercent: 0,
  goodsType: "item",
})
