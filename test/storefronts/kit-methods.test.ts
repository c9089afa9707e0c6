/**
 * The kit's payment options for wallets and app methods (issue 42): each AltaPay registration's
 * method is the one its id names, as the plugin reads it, and Apple Pay is offered only where the
 * device has Apple Pay (Apple's ApplePaySession.canMakePayments()); everything else always.
 */
import { paymentMethodOf } from "../../src/lib/payment-methods/methods"
import { altapayApplePayOffered, altapayMethodOf, altapayOfferedOptions } from "../../storefronts/nextjs-starter/src/lib/util/altapay-methods"

const OPTIONS = ["pp_altapay_card", "pp_altapay_applepay", "pp_altapay_googlepay", "pp_altapay_mobilepay", "pp_altapay_vipps", "pp_altapay_swish", "pp_system_default"].map(
  (id) => ({ id })
)

it("names each registration's method as the plugin does, and nothing for other providers", () => {
  for (const id of ["card", "altapay", "applepay", "googlepay", "mobilepay", "vipps-nok", "swish", "klarna-dkk"]) {
    expect([id, altapayMethodOf(`pp_altapay_${id}`)]).toEqual([id, paymentMethodOf({ providerId: id }).id])
  }
  expect(altapayMethodOf("pp_system_default")).toBeUndefined()
  expect(altapayMethodOf(undefined)).toBeUndefined()
})

it("offers Apple Pay only where the device says it can pay with it", () => {
  const ids = (applePay: boolean) => altapayOfferedOptions(OPTIONS, applePay).map((o) => o.id)
  expect(ids(false)).toEqual(OPTIONS.map((o) => o.id).filter((id) => id !== "pp_altapay_applepay"))
  expect(ids(true)).toEqual(OPTIONS.map((o) => o.id))
})

it("asks Apple's ApplePaySession, and takes no answer, a refusal or a throw as no Apple Pay", () => {
  expect(altapayApplePayOffered({ ApplePaySession: { canMakePayments: () => true } })).toBe(true)
  expect(altapayApplePayOffered({ ApplePaySession: { canMakePayments: () => false } })).toBe(false)
  expect(altapayApplePayOffered({})).toBe(false)
  expect(altapayApplePayOffered(undefined)).toBe(false)
  const insecure = {
    ApplePaySession: {
      canMakePayments: () => {
        throw new Error("InvalidAccessError")
      },
    },
  }
  expect(altapayApplePayOffered(insecure)).toBe(false)
})
