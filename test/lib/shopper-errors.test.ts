/**
 * What a shopper sees when AltaPay (or anything under the provider) fails: a short message and a
 * reference. Transport errors name internal addresses; those go to the log under the reference.
 */
import { AltaPayGatewayError, AltaPayNetworkError } from "../../src/altapay"
import { upstreamFailure } from "../../src/api/store/carts/[id]/altapay-session/upstream-errors"
import { toMedusaError } from "../../src/lib/medusa-mapping/errors"

const INTERNAL = "connect ECONNREFUSED 10.20.30.40:8443 (proxy.internal.example)"

function logger() {
  const lines: string[] = []
  return { lines, error: (message: string) => void lines.push(message) }
}

it("the store route's 502 body carries a short message and a reference; the log has the details under it", () => {
  const log = logger()
  const body = upstreamFailure(new AltaPayNetworkError(INTERNAL), "create the payment session", log as never)!
  expect(body).toEqual({
    type: "altapay_unreachable",
    code: "altapay_unreachable",
    message: expect.stringMatching(/^AltaPay could not create the payment session right now; please try again in a moment \(reference altapay-[0-9a-f]{12}\)\.$/),
    reference: expect.stringMatching(/^altapay-[0-9a-f]{12}$/),
  })
  expect(JSON.stringify(body)).not.toMatch(/10\.20\.30\.40|proxy\.internal/)
  expect(log.lines).toEqual([expect.stringContaining(`(reference ${body.reference}): ${INTERNAL}`)])
})

it("the provider's UNEXPECTED_STATE errors, which Medusa's handler returns verbatim, say what to do and give a reference only", () => {
  for (const error of [new AltaPayNetworkError(INTERNAL), new AltaPayGatewayError(500, INTERNAL), new Error(INTERNAL)]) {
    const log = logger()
    const medusa = toMedusaError(error, "session creation", log as never)
    expect(medusa.message).toMatch(/^AltaPay session creation failed \(reference altapay-[0-9a-f]{12}\)\./)
    expect(medusa.message).not.toMatch(/10\.20\.30\.40|proxy\.internal/)
    const reference = /reference (altapay-[0-9a-f]{12})/.exec(medusa.message)![1]
    expect(log.lines).toEqual([expect.stringMatching(new RegExp(`reference ${reference}\\): .*10\\.20\\.30\\.40`))])
  }
})
