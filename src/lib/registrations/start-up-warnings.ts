/**
 * What the provider's loader warns of when a registration starts: set-ups that run but pay wrong
 * or not live. What cannot work at all is refused by parseAltaPayOptions instead; what only
 * AltaPay's answers can tell (the API user's terminals) is altapay-check's.
 */
import { localSandbox, type AltaPayOptions } from "./options"
import { methodNamedBy, methodWithoutTerminal } from "./option-hints"
import { productionUrlFindings, usesTestGateway } from "./production-urls"

/**
 * The warnings for one registration. In production (not against a local sandbox): URLs that work
 * but should not go live, and against AltaPay's test gateway also what the live gateway refuses
 * (a staging store may run so). Anywhere: a registration named for a payment method with no terminal.
 */
export function startUpWarnings(options: AltaPayOptions, production: boolean): string[] {
  const warnings: string[] = []
  if (production && !localSandbox(options)) {
    const { refuse, report } = productionUrlFindings(options)
    warnings.push(...(usesTestGateway(options) ? [...refuse, ...report] : report))
  }
  const method = methodNamedBy(options.providerId)
  if (method && !options.terminal && !options.terminals) warnings.push(methodWithoutTerminal(options.providerId, method))
  return warnings
}
