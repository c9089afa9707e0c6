/**
 * The terminals of a registration against the API user's (getTerminals): every terminal the options
 * name must be one of them and take its currency; and a registration that names none leaves the
 * choice to AltaPay, which opens its first card method (docs/merchant.md, "One registration per
 * terminal"): wrong for a registration meant for another method, and a guess when the API user
 * has several terminals.
 */
import type { AltaPayTerminal } from "../altapay"
import { methodNamedBy, methodWithoutTerminal, terminalVariable } from "../lib/registrations/option-hints"
import type { AltaPayOptions } from "../lib/registrations/options"
import type { Finding } from "./check-line"

const titlesOf = (known: AltaPayTerminal[]): string => known.map((t) => `"${t.title}"`).join(", ") || "none"

/** Every terminal the options name is one of the API user's, and takes the currency it is named for. */
export function terminalLines(options: Pick<AltaPayOptions, "terminal" | "terminals" | "acceptedTerminals" | "invoiceTerminals">, known: AltaPayTerminal[]): Finding[] {
  const titles = titlesOf(known)
  return namedTerminals(options).map(({ option, title, currency }): Finding => {
    const terminal = known.find((t) => t.title === title)
    if (!terminal) {
      return [
        "problem",
        `${option} "${title}" is not one of the API user's terminals (AltaPay lists ${titles}): correct the name, or ask AltaPay to give the API user this terminal`,
      ]
    }
    if (currency && terminal.currencies.length > 0 && !terminal.currencies.includes(currency)) {
      return ["problem", `${option} "${title}" does not take ${currency} (AltaPay lists ${terminal.currencies.join(", ")} for it): name a ${currency} terminal`]
    }
    return ["ok", `${option} "${title}" is one of the API user's terminals`]
  })
}

/** The terminals the options name, each with the option that names it. */
export function namedTerminals(
  options: Pick<AltaPayOptions, "terminal" | "terminals" | "acceptedTerminals" | "invoiceTerminals">
): Array<{ option: string; title: string; currency?: string }> {
  return [
    ...(options.terminal ? [{ option: "terminal", title: options.terminal }] : []),
    ...Object.entries(options.terminals ?? {}).map(([currency, title]) => ({ option: `terminals.${currency}`, title, currency: currency.toUpperCase() })),
    ...(options.acceptedTerminals ?? []).map((title) => ({ option: "acceptedTerminals", title })),
    ...(options.invoiceTerminals ?? []).map((title) => ({ option: "invoiceTerminals", title })),
  ]
}

/**
 * A registration without `terminal` or `terminals`: a problem when its id names a payment method
 * (`mobilepay`), and with `production` when the API user has several terminals (`known`, when
 * AltaPay listed them); a note otherwise. Undefined when it names a terminal.
 */
export function missingTerminalLine(
  options: Pick<AltaPayOptions, "terminal" | "terminals" | "providerId">,
  known: AltaPayTerminal[] | undefined,
  production: boolean
): Finding | undefined {
  if (options.terminal || options.terminals) return undefined
  const variable = terminalVariable(options.providerId)
  const listed = known ? ` (AltaPay lists ${titlesOf(known)})` : ""
  const method = methodNamedBy(options.providerId)
  if (method) return ["problem", `${methodWithoutTerminal(options.providerId, method)}${listed}`]
  if (known && known.length > 1) {
    return [
      production ? "problem" : "note",
      `no terminal or terminals: the API user has ${known.length} terminals${listed}, and AltaPay opens the first card method of its choice; set terminal (${variable}) to the one this registration pays on`,
    ]
  }
  if (known && known.length === 1) {
    return ["note", `no terminal: AltaPay uses the API user's only terminal "${known[0].title}"; set terminal (${variable}) so a terminal AltaPay adds later changes nothing`]
  }
  return ["note", `no terminal or terminals: AltaPay opens its first card method; set terminal (${variable}) to the terminal this registration pays on`]
}
