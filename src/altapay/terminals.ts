/**
 * Reads the Body of a `getTerminals` answer: `<Terminals>` of `<Terminal>` elements with a Title,
 * Country, Natures and Currencies (AltaPay's getTerminals page:
 * https://documentation.altapay.com/Content/Ecom/API/API%20Methods/getTerminals.htm). A terminal
 * without a Title is an error: the title is the name every call and option uses.
 */
import { list, obj, str, type Raw } from "./xml-readers"

/** One terminal the API user has access to. */
export interface AltaPayTerminal {
  /** The terminal's name, as the `terminal` option and the Checkout API name it. */
  title: string
  shopName?: string
  country?: string
  /** Payment natures, e.g. CreditCard, Wallet, Invoice. */
  natures: string[]
  /** ISO 4217 codes the terminal takes; empty when AltaPay lists none. */
  currencies: string[]
}

/** Thrown for a list we cannot read; the caller turns it into AltaPayBadResponseError. */
export class TerminalsShapeError extends Error {}

export function readTerminals(body: Raw): AltaPayTerminal[] {
  if (body.Terminals === undefined) throw new TerminalsShapeError("Body has no Terminals element")
  return list(obj(body.Terminals)?.Terminal).map((node, index) => {
    const raw = obj(node) ?? {}
    const title = str(raw.Title)
    if (title === undefined) throw new TerminalsShapeError(`Terminal ${index + 1} has no Title`)
    const texts = (parent: unknown, child: string): string[] =>
      list(obj(parent)?.[child])
        .map((value) => str(value))
        .filter((value): value is string => value !== undefined)
    return {
      title,
      shopName: str(raw.ShopName),
      country: str(raw.Country),
      natures: texts(raw.Natures, "Nature"),
      currencies: texts(raw.Currencies, "Currency").map((code) => code.toUpperCase()),
    }
  })
}
