import { codePointLength, truncateText } from "../../../src/altapay/order-lines"

describe("truncateText", () => {
  it("leaves short text alone apart from trimming", () => {
    expect(truncateText("  Mug  ", 255)).toBe("Mug")
    expect(truncateText("ø".repeat(255), 255)).toBe("ø".repeat(255))
  })

  it("counts characters as code points, so 255 emoji fit in a 255-character description", () => {
    const emoji = "😀".repeat(255)
    expect(emoji.length).toBe(510)
    expect(truncateText(emoji, 255)).toBe(emoji)
  })

  it("cuts long Danish text at 255 characters including the ellipsis", () => {
    const out = truncateText("Rødgrød med fløde og æblegrød ".repeat(20), 255)
    expect(codePointLength(out)).toBeLessThanOrEqual(255)
    expect(out.endsWith("…")).toBe(true)
    expect(out).not.toMatch(/\s…$/)
  })

  it("never splits a surrogate pair at the boundary", () => {
    const out = truncateText("a".repeat(254) + "😀😀", 255)
    expect(out).toBe("a".repeat(254) + "…")
    const emoji = truncateText("😀".repeat(300), 255)
    expect(codePointLength(emoji)).toBe(255)
    expect(emoji).toBe("😀".repeat(254) + "…")
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(emoji)).toBe(false)
  })

  it("never splits a joined emoji or a letter from its accent", () => {
    const family = "👨‍👩‍👧" // 5 code points
    expect(truncateText("a".repeat(250) + family + "bb", 255)).toBe("a".repeat(250) + "…")
    expect(truncateText("a".repeat(253) + "e\u0301" + "xyz", 255)).toBe("a".repeat(253) + "…")
  })

  it("adds the ellipsis only when it fits", () => {
    expect(truncateText("abcdef", 3)).toBe("ab…")
    expect(truncateText("abcdef", 1)).toBe("a")
    expect(truncateText("abcdef", 0)).toBe("")
  })
})
