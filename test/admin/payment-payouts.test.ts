import type { MedusaContainer } from "@medusajs/framework/types"
import { readPaymentPayouts } from "../../src/api/admin/altapay/_lib/payment-payouts"

/** A container holding the payouts module (or not), as the route's request scope does. */
function scope(payouts?: { payoutsForPayments(ids: string[]): Promise<Record<string, unknown[]>> }): MedusaContainer {
  return {
    resolve: (key: string, options?: { allowUnregistered?: boolean }) => {
      if (key === "altapayPayouts" && payouts) return payouts
      if (options?.allowUnregistered) return undefined
      throw new Error(`Could not resolve '${key}'`)
    },
  } as unknown as MedusaContainer
}

describe("the order panel's payouts", () => {
  it("are none in a store without the payouts module", async () => {
    expect(await readPaymentPayouts(scope(), "pay_1")).toEqual({ payouts: [], error: null })
  })

  it("are the payment's own captures and refunds", async () => {
    const asked: string[][] = []
    const module = {
      payoutsForPayments: async (ids: string[]) => {
        asked.push(ids)
        return { pay_1: [{ medusaId: "capt_1", status: "awaiting" }] }
      },
    }
    expect(await readPaymentPayouts(scope(module), "pay_1")).toEqual({ payouts: [{ medusaId: "capt_1", status: "awaiting" }], error: null })
    expect(asked).toEqual([["pay_1"]])
  })

  it("say why they could not be read instead of failing the whole panel", async () => {
    const module = { payoutsForPayments: () => Promise.reject(new Error('relation "altapay_money_movement" does not exist')) }
    expect(await readPaymentPayouts(scope(module), "pay_1")).toEqual({
      payouts: [],
      error: 'The payouts could not be read: relation "altapay_money_movement" does not exist',
    })
  })
})
