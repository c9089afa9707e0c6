/**
 * AltaPay's card token (`CreditCardToken`, `credit_card_token`) as a value that never prints:
 * `String()`, template literals, `JSON.stringify` and `util.inspect` (console.log, loggers) all give
 * "[redacted]", so a parsed answer can be logged or stored as JSON without the token leaking.
 * `reveal()` is the one way to read it, for the rare caller that must send it on.
 */
import { inspect } from "node:util"

export const REDACTED = "[redacted]"

export class SecretToken {
  readonly #value: string

  constructor(value: string) {
    this.#value = value
  }

  /** The token itself: only for sending it to AltaPay, never for logs, payment data or browsers. */
  reveal(): string {
    return this.#value
  }

  /** Constant-length comparison is not needed here: tokens are not credentials we verify. */
  equals(other: SecretToken | undefined): boolean {
    return other !== undefined && other.#value === this.#value
  }

  toString(): string {
    return REDACTED
  }

  toJSON(): string {
    return REDACTED
  }

  [inspect.custom](): string {
    return REDACTED
  }

  [Symbol.toPrimitive](): string {
    return REDACTED
  }
}

/** A token from text, undefined when AltaPay sent none (an empty element, an invoice payment). */
export const secretTokenOf = (value: string | undefined): SecretToken | undefined => (value ? new SecretToken(value) : undefined)
