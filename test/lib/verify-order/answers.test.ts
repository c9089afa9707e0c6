/**
 * What AltaPay shows of a verify-order refusal: "the first 255 characters of your response"
 * (AltaPay's Payment Verify Order Page). Each refusal must fit whole, in every language, and be
 * the customer's language, not a key or the English.
 */
import { CUSTOMER_MESSAGES } from "../../../src/lib/languages/customer-messages"
import { LANGUAGES } from "../../../src/lib/languages/languages"
import { OKAY, REFUSALS, refuse, type Refusal } from "../../../src/lib/verify-order/answers"

const refusals = Object.keys(REFUSALS) as Refusal[]

it.each(refusals)("the %s refusal fits AltaPay's 255 characters whole, in every language", (why) => {
  for (const language of LANGUAGES) {
    const { status, text } = refuse(why, language)
    expect(status).toBe(200)
    expect(text).toBe(CUSTOMER_MESSAGES[language][REFUSALS[why]])
    expect(text.length).toBeLessThanOrEqual(255)
    expect(text).not.toBe(OKAY)
  }
})

it("speaks the payment page's language", () => {
  expect(refuse("stock", "da").text).toMatch(/ikke længere på lager/)
  expect(refuse("stock").text).toMatch(/no longer in stock/)
})
