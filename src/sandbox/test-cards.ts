/**
 * The sandbox's test cards and amounts: which card number or amount produces which outcome, the
 * one table the sandbox acts on and docs/test-gateway.md shows (a docs test keeps them equal).
 * Where AltaPay's test gateway publishes a trigger, the sandbox uses AltaPay's: its TestAcquirer
 * keys on the card's last four digits or the amount ("TestAcquirer[pan=0566 or amount=5660]",
 * api-php tests/Functional/FixedAmountProgressTest.php; "TestAcquirer[pan=1466 or amount=14660]",
 * api-php tests/Api/Results/setupsubscription_fail.xml). The rest is the sandbox's own.
 */
import { minorToDecimal } from "../altapay/money"

export const TEST_CARDS = {
  /** Approved everywhere: the card AltaPay's own SDK tests and plugins' browser tests use. */
  visa: "4111111111111111",
  mastercard: "5555555555554444",
  /** The sandbox's own: asks for 3-D Secure on the payment page, the set-up page and every customer-initiated charge. */
  visaThreeDSecure: "4000000000003220",
  /** Ends in 0566: a payment is declined (api-php FixedAmountProgressTest). */
  declined: "4180000000000566",
  /** Ends in 0567: a payment fails with a technical error (api-php FixedAmountProgressTest). */
  error: "4130000000000567",
  /** Ends in 1466: an agreement set-up is declined (sdk-php AltapaySubscriptionTest, api-php setupsubscription_fail.xml). */
  setupDeclined: "4111000011111466",
  /** Ends in 1467: an agreement set-up fails with an error (sdk-php AltapaySubscriptionTest). */
  setupError: "4111000011111467",
} as const

/** What a card or an amount makes the sandbox do. */
export type TestOutcome =
  | "approved"
  | "declined"
  | "error"
  | "3-D Secure"
  | "set-up declined"
  | "set-up error"
  | "verification declined"
  | "verification error"
  | "open"
  | "fraud Accept"
  | "fraud Challenge"
  | "fraud Deny"
  | "refund fails"
  | "refund errs"
  | "expired card"
  | "ended agreement"

export interface TestCase {
  outcome: TestOutcome
  /** The card number, or what of it counts. */
  card: string
  /** The amount (decimal, any currency), when an amount triggers it. */
  amount: string
  /** Which calls or pages it applies to. */
  where: string
  /** What the sandbox does. */
  sandbox: string
  /** AltaPay's source for the trigger, or "the sandbox's own". */
  source: string
}

const CARD_PAYMENTS = "AltaPay's Testing page [Credit card payments](https://documentation.altapay.com/Content/Ecom/Testing/1%20-Credit%20card%20payments.htm)"

export const TEST_CASES: readonly TestCase[] = [
  {
    outcome: "approved",
    card: `any other number, e.g. \`${TEST_CARDS.visa}\` (Visa), \`${TEST_CARDS.mastercard}\` (Mastercard)`,
    amount: "any other",
    where: "payment page, set-up page, charges",
    sandbox: "reserved (`preauth`), or the agreement set up (`recurring_confirmed`)",
    source: "AltaPay's Testing SFRA page (\"you can use any card number when testing against the test gateway\"); `4111111111111111` in AltaPay's SDK tests",
  },
  {
    outcome: "declined",
    card: `ends in \`0566\`, e.g. \`${TEST_CARDS.declined}\``,
    amount: "5.66",
    where: "payment page",
    sandbox: "`Failed`, `epayment_declined`",
    source: `${CARD_PAYMENTS} (5.66); api-php \`tests/Functional/FixedAmountProgressTest.php\` (\`${TEST_CARDS.declined}\`, "TestAcquirer[pan=0566 or amount=5660]")`,
  },
  {
    outcome: "error",
    card: `ends in \`0567\`, e.g. \`${TEST_CARDS.error}\``,
    amount: "5.67",
    where: "payment page",
    sandbox: "`Error`, `preauth_error`",
    source: `${CARD_PAYMENTS} (5.67); api-php \`tests/Functional/FixedAmountProgressTest.php\` (\`${TEST_CARDS.error}\`)`,
  },
  {
    outcome: "3-D Secure",
    card: `\`${TEST_CARDS.visaThreeDSecure}\``,
    amount: "5.68",
    where: "payment page, set-up page; the card also on customer-initiated charges (`agreement[unscheduled_type]=charge`)",
    sandbox: "the challenge page (**Authenticate** / **Fail**) before anything is reserved or set up; a charge answers `Result` `Redirect`",
    source: `${CARD_PAYMENTS} (5.68, "3DSecureWork"); the card number is the sandbox's own (that page's challenge card numbers are not in its published text)`,
  },
  {
    outcome: "set-up declined",
    card: `ends in \`1466\`, e.g. \`${TEST_CARDS.setupDeclined}\``,
    amount: "14.66",
    where: "set-up page",
    sandbox: "`recurring_failed`, the callback to `callback_fail`",
    source: `api-php \`tests/Api/Results/setupsubscription_fail.xml\` ("TestAcquirer[pan=1466 or amount=14660]"); sdk-php's integration test \`AltapaySubscriptionTest.php\` (\`${TEST_CARDS.setupDeclined}\` declined)`,
  },
  {
    outcome: "set-up error",
    card: `ends in \`1467\`, e.g. \`${TEST_CARDS.setupError}\``,
    amount: "",
    where: "set-up page",
    sandbox: "`recurring_failed` with an error message, the callback to `callback_fail`",
    source: `sdk-php's integration test \`AltapaySubscriptionTest.php\` (\`${TEST_CARDS.setupError}\` erroneous)`,
  },
  {
    outcome: "verification declined",
    card: "",
    amount: "16.66",
    where: "set-up page of a `verifyCard` request",
    sandbox: "`recurring_failed`, the callback to `callback_fail`",
    source: `${CARD_PAYMENTS} ("The card verification fails because the card is declined", 16.66)`,
  },
  {
    outcome: "verification error",
    card: "",
    amount: "16.67",
    where: "set-up page of a `verifyCard` request",
    sandbox: "`recurring_failed` with an error message",
    source: `${CARD_PAYMENTS} (16.67)`,
  },
  {
    outcome: "open",
    card: "",
    amount: "13.64",
    where: "chargeSubscription, reserveSubscriptionCharge",
    sandbox: '`Result` `Open`, TransactionStatus `pending`, nothing reserved until `sandbox.agreements.settle(transactionId, outcome)` (`"success"` or `"fail"`)',
    source:
      'AltaPay\'s Testing page [Wallet agreements](https://documentation.altapay.com/Content/Ecom/Testing/7-CreditCardWallet%20agreements.htm) ("If the charged amount=13.64, the transaction will remain in PENDING status")',
  },
  {
    outcome: "fraud Accept",
    card: "",
    amount: "101.00",
    where: "payment page",
    sandbox: "reserved, with `FraudRecommendation` `Accept`",
    source: `${CARD_PAYMENTS} (fraud check table: Accept 101)`,
  },
  {
    outcome: "fraud Challenge",
    card: "",
    amount: "102.00",
    where: "payment page",
    sandbox: "reserved, with `FraudRecommendation` `Challenge`",
    source: `${CARD_PAYMENTS} (Challenge 102)`,
  },
  {
    outcome: "fraud Deny",
    card: "",
    amount: "110.00",
    where: "payment page",
    sandbox: "reserved, with `FraudRecommendation` `Deny` (the shop decides; AltaPay's Magento plugin releases or refunds)",
    source: `${CARD_PAYMENTS} (Deny 110)`,
  },
  {
    outcome: "refund fails",
    card: "",
    amount: "9.66 (the payment's)",
    where: "refundCapturedReservation",
    sandbox: "`Result` `Fail`",
    source:
      "AltaPay's Testing page [Mobile payments](https://documentation.altapay.com/Content/Ecom/Testing/5%20-Mobile%20payments.htm) (back-end cases: refundCapturedReservation 9.66)",
  },
  {
    outcome: "refund errs",
    card: "",
    amount: "9.67 (the payment's)",
    where: "refundCapturedReservation",
    sandbox: "`Result` `Error`",
    source: "the same page (9.67)",
  },
  {
    outcome: "expired card",
    card: "any, with an expiry month the sandbox's clock has passed",
    amount: "",
    where: "set-up page, charges",
    sandbox: 'the set-up `recurring_failed` ("Card expired"); a charge `Failed` ("Card expired (MM/YYYY) ...")',
    source: "the sandbox's own (move `sandbox.setClock` past the expiry)",
  },
  {
    outcome: "ended agreement",
    card: "any, after `sandbox.agreements.end(agreementId)`",
    amount: "",
    where: "charges",
    sandbox: '`Failed` ("Agreement ... has been ended ...")',
    source: "the sandbox's own",
  },
]

/** The last four digits of a card number (spaces and dashes ignored). */
const lastFour = (cardNumber: string | undefined): string => (cardNumber ?? "").replace(/[\s-]/g, "").slice(-4)

const amountIs = (amountMinor: number, currency: string, decimal: string): boolean => minorToDecimal(amountMinor, currency) === decimal

/** What a card payment on the payment page does (before the customer's own Decline). */
export function paymentOutcome(cardNumber: string | undefined, amountMinor: number, currency: string): "approved" | "declined" | "error" | "3-D Secure" {
  const last = lastFour(cardNumber)
  if (last === "0566" || amountIs(amountMinor, currency, "5.66")) return "declined"
  if (last === "0567" || amountIs(amountMinor, currency, "5.67")) return "error"
  if (needsChallenge(cardNumber, amountMinor, currency)) return "3-D Secure"
  return "approved"
}

/** The fraud service's recommendation on a payment, by AltaPay's test amounts; undefined: none. */
export function fraudRecommendation(amountMinor: number, currency: string): "Accept" | "Challenge" | "Deny" | undefined {
  if (amountIs(amountMinor, currency, "101.00")) return "Accept"
  if (amountIs(amountMinor, currency, "102.00")) return "Challenge"
  if (amountIs(amountMinor, currency, "110.00")) return "Deny"
  return undefined
}

/** What an agreement set-up page does with this card (before expiry, 3-D Secure and the customer's Decline). */
export function setupOutcome(cardNumber: string, amountMinor: number, currency: string, type: string): "approved" | "declined" | "error" {
  const last = lastFour(cardNumber)
  if (last === "1466" || amountIs(amountMinor, currency, "14.66")) return "declined"
  if (last === "1467") return "error"
  if (type === "verifyCard" && amountIs(amountMinor, currency, "16.66")) return "declined"
  if (type === "verifyCard" && amountIs(amountMinor, currency, "16.67")) return "error"
  return "approved"
}

/** Whether the payment or set-up page asks for 3-D Secure: the 3-D Secure card, or AltaPay's 5.68. */
export function needsChallenge(cardNumber: string | undefined, amountMinor: number, currency: string): boolean {
  return (cardNumber ?? "").replace(/[\s-]/g, "") === TEST_CARDS.visaThreeDSecure || amountIs(amountMinor, currency, "5.68")
}

/** Whether a charge on an agreement stays open (AltaPay's 13.64). */
export const chargeStaysOpen = (amountMinor: number, currency: string): boolean => amountIs(amountMinor, currency, "13.64")
