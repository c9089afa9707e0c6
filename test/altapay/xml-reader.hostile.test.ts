/**
 * The client's own XML reader (xml-reader.ts) on hostile documents: what AltaPay's answers and the
 * `xml` field of a callback could carry if anything in between were hostile. It must never throw,
 * never give a tree fast-xml-parser would not give, and never hand on a tree so deep that the next
 * recursive reader of it (JSON, a log line, structuredClone) overflows the stack. parseGatewayResponse
 * and parseCallback around it throw nothing but their own typed errors, and entity declarations
 * (billion laughs, an external entity) neither expand without bound nor read a file.
 */
import fc from "fast-check"
import { XMLParser } from "fast-xml-parser"
import { parseCallback } from "../../src/altapay/callbacks"
import { AltaPayBadResponseError, AltaPayValidationError } from "../../src/altapay/errors"
import { parseGatewayResponse, parserOptions } from "../../src/altapay/xml"
import { readWellFormedXml } from "../../src/altapay/xml-reader"
import { ATTR, TEXT } from "../../src/altapay/xml-readers"

const settings = { attributePrefix: ATTR, textKey: TEXT, repeatedIn: new Map([["Transaction", "Transactions"]]), maxNestedTags: parserOptions.maxNestedTags }
const read = (xml: string) => readWellFormedXml(xml, settings)
const fastXmlParser = new XMLParser({
  ...parserOptions,
  isArray: (name: string, path: unknown) => name === "Transaction" && (path as { toArray(): string[] }).toArray().at(-2) === "Transactions",
})

const apiResponse = (body: string, prolog = "") =>
  `<?xml version="1.0"?>${prolog}<APIResponse version="20170228"><Header><ErrorCode>0</ErrorCode></Header><Body><Result>Success</Result>${body}</Body></APIResponse>`
const deep = (levels: number) => `${"<X>".repeat(levels)}x${"</X>".repeat(levels)}`
const LAUGHS = `<!DOCTYPE APIResponse [<!ENTITY l0 "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join("")}<!ENTITY xxe SYSTEM "file:///etc/passwd">]>`

/** Depth of a parsed tree, counted without recursion. */
function depthOf(tree: unknown): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[tree, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    deepest = Math.max(deepest, depth)
    if (node && typeof node === "object") for (const child of Object.values(node)) stack.push([child, depth + 1])
  }
  return deepest
}

describe("the reader on hostile documents", () => {
  // Well-formed trees with odd but legal (or nearly legal) things in odd places.
  const name = fc.constantFrom("A", "B", "Transactions", "Transaction", "n:x", "c-d.e", "a1")
  const value = fc.constantFrom("", " ", "x", "a b", "&amp;", "&lt;", ">", "/", "=", "'", '"', "&gt;x", " \n ")
  const attribute = fc
    .tuple(fc.constantFrom("x", "y", "n:y"), value, fc.constantFrom('"', "'"))
    .filter(([, v, q]) => !v.includes(q))
    .map(([n, v, q]) => ` ${n}=${q}${v}${q}`)
  const text = fc.constantFrom("", " ", "t", " t ", "&amp;", "&lt;B&gt;", "\r\n", "]]>", ">", "a&quot;b", "&apos;")
  const odd = fc.constantFrom("<!---->", "<!-- - -->", "<![CDATA[]]>", "<![CDATA[ x ]]>", "<![CDATA[<A>]]>", " ", "\n", "\r", "\t", "<?pi?>", "<!DOCTYPE A>")
  const element: fc.Memo<string> = fc.memo((depth) =>
    fc
      .tuple(
        name,
        fc.uniqueArray(attribute, { maxLength: 2, selector: (a) => a.split("=")[0] }),
        depth <= 1 ? fc.constant([]) : fc.array(element(depth - 1), { maxLength: 3 }),
        text,
        fc.array(odd, { maxLength: 2 }),
        fc.constantFrom(" ", "", "\n")
      )
      .map(
        ([tag, attrs, children, content, [first = "", between = ""], gap]) =>
          `<${tag}${attrs.join("")}${gap}>${first}${children.length ? children.join(between) : content}</${tag}${gap}>`
      )
  )
  const document = fc
    .tuple(fc.constantFrom("", '<?xml version="1.0"?>', "<!-- c -->", " "), element(4), fc.constantFrom("", " ", "<!-- e -->", "\n"))
    .map((parts) => parts.join(""))
  // Plain junk made of XML's punctuation.
  const junk = fc
    .array(
      fc.constantFrom(
        "<",
        ">",
        "</",
        "/>",
        "<!--",
        "-->",
        "<![CDATA[",
        "]]>",
        "<?xml ",
        "?>",
        "=",
        '"',
        "'",
        "&amp;",
        "&",
        ";",
        " ",
        "\r",
        "A",
        "x",
        "Transaction",
        "\u0000",
        "\ufffd",
        "__proto__"
      ),
      { maxLength: 40 }
    )
    .map((parts) => parts.join(""))

  it("never throws, and what it reads fast-xml-parser reads the same", () => {
    fc.assert(
      fc.property(fc.oneof(document, junk), (xml) => {
        const tree = read(xml)
        if (tree !== undefined) expect(JSON.stringify(tree)).toBe(JSON.stringify(fastXmlParser.parse(xml)))
      }),
      { numRuns: 20_000 }
    )
  })

  it("an attribute value holding '>' is not cut there: left to fast-xml-parser, or read whole", () => {
    for (const xml of ['<A x=">"/>', "<A x='a>b' y=\"c\">t</A>", '<A x="/>"><B/></A>']) {
      const tree = read(xml)
      if (tree !== undefined) expect(tree).toEqual(fastXmlParser.parse(xml))
    }
  })

  it("leaves DOCTYPE and entity declarations to fast-xml-parser", () => {
    expect(read(apiResponse("<X>&l9;</X>", LAUGHS))).toBeUndefined()
    expect(read(apiResponse("<X>&xxe;</X>", LAUGHS))).toBeUndefined()
  })

  it("reads 100,000 levels without recursing (no stack overflow, no throw)", () => {
    expect(() => read(apiResponse(deep(100_000)))).not.toThrow()
  })

  // fast-xml-parser refuses documents nested deeper than its maxNestedTags (100). The reader reads
  // them, and its tree is then deeper than JSON.stringify (and every other recursive reader) can go.
  it("gives no tree deeper than fast-xml-parser would read: nothing downstream can overflow on it", () => {
    const xml = apiResponse(deep(20_000))
    expect(() => fastXmlParser.parse(xml)).toThrow(/nested/i)
    const tree = read(xml)
    if (tree !== undefined) expect(depthOf(tree)).toBeLessThanOrEqual(101)
    // What parseGatewayResponse hands on can be written as JSON (a log line, stored data).
    let parsed: unknown
    try {
      parsed = parseGatewayResponse(xml)
    } catch (error) {
      expect(error).toBeInstanceOf(AltaPayBadResponseError)
    }
    expect(() => JSON.stringify(parsed)).not.toThrow()
  })
})

describe("parseGatewayResponse and parseCallback on hostile XML", () => {
  const hostile: Array<[string, string]> = [
    ["billion laughs", apiResponse("<Transactions><Transaction><TransactionId>1</TransactionId><ShopOrderId>&l9;</ShopOrderId></Transaction></Transactions>", LAUGHS)],
    ["an external entity", apiResponse("<CardHolderErrorMessage>&xxe;</CardHolderErrorMessage>", LAUGHS)],
    ["deep, with a DOCTYPE", apiResponse(deep(20_000), "<!DOCTYPE APIResponse>")],
    ["deep, mixed content", apiResponse(`${"<X>".repeat(20_000)}t<Y/>${"</X>".repeat(20_000)}`)],
    ["deep, unterminated", apiResponse(deep(20_000)).slice(0, -40)],
    ["CDATA around the root", `<![CDATA[${apiResponse("")}]]>`],
    ["a comment inside a tag", apiResponse('<X <!-- a="1" -->>t</X>')],
  ]

  it.each(hostile)("%s: an AltaPayBadResponseError or a response, in bounded size, with no file read", (_name, xml) => {
    let text = ""
    try {
      text = JSON.stringify(parseGatewayResponse(xml))
    } catch (error) {
      expect(error).toBeInstanceOf(AltaPayBadResponseError)
    }
    expect(text.length).toBeLessThan(1_000_000)
    expect(text).not.toMatch(/root:/)
  })

  it.each(hostile)("%s in a callback's xml: parseCallback answers or throws AltaPayValidationError, and shows no file", (_name, xml) => {
    const body = new URLSearchParams({ shop_orderid: "payses-01ABC", status: "failed", cardholder_message_must_be_shown: "true", xml }).toString()
    try {
      const callback = parseCallback(body)
      expect(callback.cardholderMessage ?? "").not.toMatch(/root:|lollollol/)
    } catch (error) {
      expect(error).toBeInstanceOf(AltaPayValidationError)
    }
  })

  it.each(["1e3", "0x10", "NaN", "Infinity", "1,00", "１０"])("a callback amount of %j is refused, not read as a number", (amount) => {
    expect(() => parseCallback(new URLSearchParams({ shop_orderid: "payses-01ABC", status: "succeeded", amount, currency: "DKK" }).toString())).toThrow(AltaPayValidationError)
  })
})
