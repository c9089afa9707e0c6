import { textLength, truncateText } from "../../../src/altapay/order-lines"

describe("textLength", () => {
  it("counts UTF-16 units, never fewer than code points: an emoji is 2, ø is 1", () => {
    expect(textLength("Mug")).toBe(3)
    expect(textLength("ø")).toBe(1)
    expect(textLength("😀")).toBe(2)
    expect(textLength("👨‍👩‍👧")).toBe(8) // 3 emoji and 2 joiners
  })
})

describe("truncateText", () => {
  it("leaves short text alone apart from trimming", () => {
    expect(truncateText("  Mug  ", 255)).toBe("Mug")
    expect(truncateText("ø".repeat(255), 255)).toBe("ø".repeat(255))
    expect(truncateText("😀".repeat(127) + "a", 255)).toBe("😀".repeat(127) + "a")
  })

  it("counts UTF-16 units, so 255 emoji do not fit a 255-character description: cut between emoji", () => {
    const out = truncateText("😀".repeat(255), 255)
    expect(out).toBe("😀".repeat(127) + "…")
    expect(textLength(out)).toBe(255)
  })

  it("cuts a title of 240 letters and 10 emoji (250 code points, 260 units) to fit 255 units", () => {
    const title = "a".repeat(240) + "🎁🎄🎅🦌🔔".repeat(2)
    const out = truncateText(title, 255)
    expect(out).toBe("a".repeat(240) + "🎁🎄🎅🦌🔔🎁🎄" + "…")
    expect(textLength(out)).toBe(255)
  })

  it("cuts long Danish text at 255 characters including the ellipsis", () => {
    const out = truncateText("Rødgrød med fløde og æblegrød ".repeat(20), 255)
    expect(textLength(out)).toBeLessThanOrEqual(255)
    expect(out.endsWith("…")).toBe(true)
    expect(out).not.toMatch(/\s…$/)
  })

  it("never splits a surrogate pair at the boundary", () => {
    const out = truncateText("a".repeat(253) + "😀😀", 255)
    expect(out).toBe("a".repeat(253) + "…")
    const emoji = truncateText("😀".repeat(300), 255)
    expect(textLength(emoji)).toBe(255)
    expect(emoji).toBe("😀".repeat(127) + "…")
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(emoji)).toBe(false)
    const odd = truncateText("😀".repeat(300), 100)
    expect(odd).toBe("😀".repeat(49) + "…")
  })

  it("never splits a joined emoji or a letter from its accent", () => {
    const family = "👨‍👩‍👧" // 8 UTF-16 units
    expect(truncateText("a".repeat(250) + family + "bb", 255)).toBe("a".repeat(250) + "…")
    expect(truncateText("a".repeat(253) + "e\u0301" + "xyz", 255)).toBe("a".repeat(253) + "…")
  })

  it("falls back to a code point boundary only when one cluster alone is longer than the limit", () => {
    const family = "👨‍👩‍👧"
    expect(truncateText(family + "b", 5)).toBe("👨\u200D…") // 4 units left would take half of 👩: 3 kept
    expect(truncateText(family + "b", 3)).toBe("👨…")
    expect(truncateText("😀b", 1)).toBe("")
  })

  it("adds the ellipsis only when it fits", () => {
    expect(truncateText("abcdef", 3)).toBe("ab…")
    expect(truncateText("abcdef", 1)).toBe("a")
    expect(truncateText("abcdef", 0)).toBe("")
  })

  it("turns each run of control characters into one space, then trims", () => {
    expect(truncateText("Mug\u0000\u0007 blue\r\n\tlarge\u0085", 255)).toBe("Mug  blue large")
    expect(truncateText("\u0001\u001F  \u007F", 255)).toBe("")
    const out = truncateText("\u000B" + "a".repeat(300), 255)
    expect(out).toBe("a".repeat(254) + "…")
    expect(/\p{Cc}/u.test(truncateText("x\u0008".repeat(200), 255))).toBe(false)
  })
})
