/**
 * 3-D Secure challenges waiting for the customer, on every card road: a payment page, an
 * agreement's set-up page and a customer-initiated charge on a saved card. Each waits at
 * `/sandbox/3ds/<id>` (three-d-secure.ts answers it); nothing is reserved, set up or charged until
 * the customer answers it.
 */
import { randomUUID } from "node:crypto"
import type { PendingChallenge, SandboxCard } from "./agreements/agreements"

/** What else the customer did on a payment page: the card typed in (test-cards.ts) and a 3-D Secure challenge's answer. */
export interface PaymentDetails {
  cardNumber?: string
  threeDSecure?: "Successful" | "Declined"
}

export type Challenge =
  /** A charge on an agreement that answered Result=Redirect. */
  | { kind: "charge"; charge: PendingChallenge }
  /** An agreement's set-up page, submitted with a card that asks for 3-D Secure. */
  | { kind: "setup"; requestId: string; card: SandboxCard & { threeDSecure: boolean } }
  /** A checkout payment's page, submitted with a card or amount that asks for 3-D Secure. */
  | { kind: "payment"; paymentId: string; details: PaymentDetails; returnDelayMs?: number }

export class ChallengeBook {
  private readonly waiting = new Map<string, Challenge>()
  /** Answered challenges, so a second answer is told so (409) rather than "not found". */
  private readonly answered = new Set<string>()

  /** Keeps a challenge; returns its id (the last segment of its page's URL). */
  open(challenge: Challenge): string {
    const id = randomUUID()
    this.waiting.set(id, challenge)
    return id
  }

  get(id: string): Challenge | undefined {
    return this.waiting.get(id)
  }

  wasAnswered(id: string): boolean {
    return this.answered.has(id)
  }

  /** Takes the challenge off the page: it can be answered once. */
  close(id: string): void {
    if (this.waiting.delete(id)) this.answered.add(id)
  }
}

/** The challenge page's URL for an id. */
export const challengeUrl = (baseUrl: string, id: string): string => `${baseUrl}/sandbox/3ds/${id}`
