import { altapayMethodOf } from "@lib/util/altapay-methods"

/**
 * A placeholder mark for an AltaPay option's method, in the method's colour (medusa-payment-altapay
 * kit): replace it with the brand's own logo from its brand guidelines (Apple Pay, Google Pay,
 * MobilePay, Vipps, Swish, Klarna each publish theirs) before going live.
 */
const MARKS: Record<string, { colour: string; letter: string }> = {
  applepay: { colour: "#000000", letter: "A" },
  googlepay: { colour: "#4285f4", letter: "G" },
  mobilepay: { colour: "#5a78ff", letter: "M" },
  vipps: { colour: "#ff5b24", letter: "V" },
  swish: { colour: "#00a0e6", letter: "S" },
  klarna: { colour: "#ffa8cd", letter: "K" },
}

const AltaPayMethodLogo = ({ providerId }: { providerId: string }) => {
  const mark = MARKS[altapayMethodOf(providerId) ?? ""]
  if (!mark) {
    return null
  }
  return (
    <svg
      width="24"
      height="16"
      viewBox="0 0 24 16"
      aria-hidden="true"
      data-testid="altapay-method-logo"
    >
      <rect width="24" height="16" rx="3" fill={mark.colour} />
      <text
        x="12"
        y="12"
        fontSize="10"
        textAnchor="middle"
        fill="#ffffff"
        fontFamily="sans-serif"
      >
        {mark.letter}
      </text>
    </svg>
  )
}

export default AltaPayMethodLogo
