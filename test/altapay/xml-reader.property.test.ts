import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import fc from "fast-check"
import { XMLParser } from "fast-xml-parser"
import { parserOptions } from "../../src/altapay/xml"
import { readWellFormedXml } from "../../src/altapay/xml-reader"
import { ATTR, TEXT } from "../../src/altapay/xml-readers"

// The client's reader must give fast-xml-parser's tree (with the client's settings) or nothing.
const fastXmlParser = new XMLParser(parserOptions)
const settings = {
  attributePrefix: ATTR,
  textKey: TEXT,
  repeatedIn: new Map([
    ["Transaction", "Transactions"],
    ["PaymentInfo", "PaymentInfos"],
    ["ReconciliationIdentifier", "ReconciliationIdentifiers"],
  ]),
  maxNestedTags: parserOptions.maxNestedTags,
}
const read = (xml: string) => readWellFormedXml(xml, settings)
/** Same tree, same key order (JSON text), as fast-xml-parser's. */
const sameAsFastXmlParser = (xml: string): void => expect(JSON.stringify(read(xml))).toBe(JSON.stringify(fastXmlParser.parse(xml)))

const answers = (folder: string): Array<[string, string]> =>
  readdirSync(folder)
    .filter((f) => f.endsWith(".xml"))
    .map((f) => [f, readFileSync(join(folder, f), "utf8").replace(/^\uFEFF/, "")])
const fixtures = [...answers(join(__dirname, "../fixtures/gateway")), ...answers(join(__dirname, "documented-samples/files"))]

describe("the client's XML reader", () => {
  it.each(fixtures)("reads %s itself, into fast-xml-parser's tree", (_name, xml) => {
    // Answers with references other than the five XML entities are fast-xml-parser's (its decoding parser).
    if (/&(?!(?:amp|lt|gt|quot|apos);)/.test(xml)) return expect(read(xml)).toBeUndefined()
    expect(read(xml)).toBeDefined()
    sameAsFastXmlParser(xml)
  })

  const name = fc.constantFrom("A", "b", "Transactions", "Transaction", "PaymentInfos", "PaymentInfo", "ReconciliationIdentifiers", "ReconciliationIdentifier", "n:x", "c-d.e")
  const space = fc.constantFrom("", " ", "\n  ", "\r\n", "\t", " \r ")
  const text = fc
    .stringMatching(/^[ a-z0-9\u00e6\u00a0\r\n.-]{0,8}$/)
    .chain((plain) => fc.constantFrom(plain, `${plain}&amp;`, `&lt;${plain}&gt;`, `&quot;${plain}&apos;`, `&amp;lt;${plain}`))
  const attribute = fc.tuple(fc.constantFrom("x", "currency", "name", "n:y"), text, fc.constantFrom('"', "'")).map(([n, v, q]) => ` ${n}=${q}${v.replace(/["']/g, "")}${q}`)
  const attributes = fc.uniqueArray(attribute, { maxLength: 3, selector: (a) => a.split("=")[0] }).map((list) => list.join(""))
  const cdata = text.map((t) => `<![CDATA[${t.replace(/]]>/g, "")}]]>`)
  const comment = text.map((t) => `<!--${t.replace(/-/g, "")}-->`)
  const leafContent = fc.array(fc.oneof(text, cdata, comment), { maxLength: 3 }).map((parts) => parts.join(""))

  const element: fc.Memo<string> = fc.memo((depth) =>
    fc
      .tuple(
        name,
        attributes,
        space,
        depth <= 1 ? fc.constant(undefined) : fc.option(fc.array(element(depth - 1), { minLength: 1, maxLength: 4 }), { nil: undefined }),
        leafContent,
        fc.boolean()
      )
      .map(([tag, attrs, gap, children, content, selfClosing]) => {
        if (children) return `<${tag}${attrs}${gap}>${children.map((c) => `${gap}${c}`).join("")}${gap}</${tag}${gap}>`
        return selfClosing ? `<${tag}${attrs}${gap}/>` : `<${tag}${attrs}>${content}</${tag}>`
      })
  )
  const declaration = fc.constantFrom("", '<?xml version="1.0" encoding="UTF-8"?>\n', "<?xml version='1.0'?>")
  const document = fc.tuple(declaration, fc.option(comment, { nil: "" }), element(4), space).map((parts) => parts.join(""))

  it("reads well-formed documents as fast-xml-parser does", () => {
    fc.assert(
      fc.property(document, (xml) => {
        const tree = read(xml)
        // Mixed text and elements is the only thing these documents hold that the reader leaves to fast-xml-parser.
        if (tree !== undefined) sameAsFastXmlParser(xml)
      }),
      { numRuns: 2000 }
    )
  })

  it("reads every generated document without mixed content itself", () => {
    const unmixed = element(4).filter((xml) => !/>[^<]*[^\s<][^<]*<[A-Za-z]|[A-Za-z"'/]>[^<]*<!\[CDATA\[/.test(xml))
    fc.assert(fc.property(unmixed, (xml) => expect(read(xml)).toBeDefined()))
  })

  it("leaves what it is not sure of to fast-xml-parser", () => {
    const outside = [
      '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>',
      "<a><?pi x?></a>",
      "<a><b>1</a></b>",
      "<a><b>1</b>",
      "<a>1</a><b>2</b>",
      "<a x=1/>",
      '<a x="1"y="2"/>',
      '<a x="1" x="2"/>',
      "<a>t<b/></a>",
      "<constructor>1</constructor>",
      "<a><__proto__>1</__proto__></a>",
      "<a>&#230;</a>",
      "<a>&nbsp;</a>",
      "text<a/>",
      '  <?xml version="1.0"?><a/>',
    ]
    for (const xml of outside) expect(read(xml)).toBeUndefined()
  })
})
