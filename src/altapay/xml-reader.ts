/**
 * A strict reader for the well-formed XML AltaPay answers with, giving exactly the tree
 * fast-xml-parser gives with the client's settings (xml.ts: attributes as `@_name`, text as
 * `#text`, values trimmed and left as text, the repeated elements always lists). It reads an
 * answer in about a fifth of fast-xml-parser's time, which was the largest part of a capture's or
 * a refund's CPU, so of their latency with many calls in flight.
 *
 * It reads only what it is sure of: elements, quoted attributes, text with the five XML entities,
 * CDATA, comments and the leading `<?xml ...?>`. Anything else (a DOCTYPE, another processing
 * instruction, a tag that does not close what it should, mixed text and elements, an unquoted
 * attribute, a name that is not a plain XML name) returns undefined, and xml.ts hands the body to
 * fast-xml-parser as before: what this reader gives is never a guess. A property test compares
 * the two on generated documents and every answer in the fixtures (test/altapay/xml-reader).
 */

/** The tree fast-xml-parser gives: elements by name, text as strings, lists where repeated. */
export type XmlTree = Record<string, unknown>

export interface ReaderSettings {
  /** Prefix of attribute keys (fast-xml-parser's `attributeNamePrefix`). */
  attributePrefix: string
  /** Key of an element's text beside its attributes (`textNodeName`). */
  textKey: string
  /** Elements that are always lists, by their parent's name (fast-xml-parser's `isArray`). */
  repeatedIn: ReadonlyMap<string, string>
  /**
   * Deepest element nesting read (fast-xml-parser's `maxNestedTags`): a deeper document goes to
   * fast-xml-parser, which refuses it, so no tree is handed on that a JSON.stringify could not write.
   */
  maxNestedTags: number
}

/** Thrown inside the reader for anything outside what it reads; never escapes it. */
class NotRead extends Error {}
const notRead = (): never => {
  throw new NotRead()
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }
const ENTITY = /&(amp|lt|gt|quot|apos);/g
const decode = (text: string): string => (text.indexOf("&") < 0 ? text : text.replace(ENTITY, (_, name: string) => ENTITIES[name]))
/** Any `&` that does not start one of the five XML entities. */
const OTHER_REFERENCE = /&(?!(?:amp|lt|gt|quot|apos);)/

/** A plain XML name; one that is also a property of every object (`constructor`) is left to fast-xml-parser, which renames such names. */
const NAME = /^[A-Za-z_][\w.:-]*$/
const OBJECT_PROPERTIES = new Set([...Object.getOwnPropertyNames(Object.prototype), "prototype"])
const plainName = (name: string): boolean => NAME.test(name) && !OBJECT_PROPERTIES.has(name)

const isSpace = (code: number): boolean => code === 32 || code === 10 || code === 9 || code === 13
/** A-Z a-z _ (a name's first character). */
const isNameStart = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
/** A name's other characters: also 0-9 . : - */
const isNameChar = (code: number): boolean => isNameStart(code) || (code >= 48 && code <= 58) || code === 46 || code === 45

/** Whether only white space lies between `from` and `to` in `text`. */
function blank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false
  return true
}

interface Open {
  name: string
  attributes: XmlTree | undefined
  children: XmlTree | undefined
  text: string
}

/** The document's tree, or undefined when the body is not one this reader reads (fast-xml-parser's turn). */
export function readWellFormedXml(body: string, settings: ReaderSettings): XmlTree | undefined {
  if (OTHER_REFERENCE.test(body)) return undefined
  // XML's line-end handling, as fast-xml-parser does it.
  const xml = body.indexOf("\r") < 0 ? body : body.replace(/\r\n?/g, "\n")
  try {
    return read(xml, settings)
  } catch (error) {
    if (error instanceof NotRead) return undefined
    throw error
  }
}

function read(xml: string, settings: ReaderSettings): XmlTree {
  const { attributePrefix, textKey, repeatedIn } = settings
  const document: XmlTree = {}
  const stack: Open[] = []
  let current: Open | undefined
  let rootClosed = false
  // Text since the last tag (comments do not interrupt it); trimmed and kept when a tag comes.
  let pending = ""

  const keepText = (): void => {
    if (pending === "") return
    const text = decode(pending).trim()
    pending = ""
    if (text === "") return
    if (!current) notRead() // text outside the root element
    current!.text += text
  }

  const attributesOf = (source: string): XmlTree | undefined => {
    let attributes: XmlTree | undefined
    let i = 0
    while (i < source.length) {
      if (isSpace(source.charCodeAt(i))) {
        i++
        continue
      }
      const equals = source.indexOf("=", i)
      if (equals < 0) notRead()
      const name = source.slice(i, equals)
      if (!plainName(name)) notRead()
      const quote = source[equals + 1]
      if (quote !== '"' && quote !== "'") notRead()
      const end = source.indexOf(quote, equals + 2)
      if (end < 0) notRead()
      const value = source.slice(equals + 2, end)
      if (value.indexOf("<") >= 0) notRead()
      const key = attributePrefix + name
      attributes ??= {}
      if (key in attributes) notRead()
      attributes[key] = decode(value).trim()
      i = end + 1
      if (i < source.length && !isSpace(source.charCodeAt(i))) notRead()
    }
    return attributes
  }

  const close = (): void => {
    const element = current!
    current = stack.pop()
    let value: unknown
    if (element.children) {
      if (element.text !== "") notRead() // mixed content
      value = element.attributes ? Object.assign(element.children, element.attributes) : element.children
    } else if (element.attributes) {
      value = element.text === "" ? element.attributes : { [textKey]: element.text, ...element.attributes }
    } else {
      value = element.text
    }
    if (!current) {
      rootClosed = true
      document[element.name] = value
      return
    }
    const siblings = (current.children ??= {})
    const always = repeatedIn.get(element.name) === current.name
    const before = siblings[element.name]
    if (before === undefined) siblings[element.name] = always ? [value] : value
    else if (Array.isArray(before)) before.push(value)
    else siblings[element.name] = [before, value]
  }

  let i = 0
  while (i < xml.length) {
    const lt = xml.indexOf("<", i)
    if (lt < 0) {
      pending += xml.slice(i)
      break
    }
    if (lt > i) pending += xml.slice(i, lt)
    const next = xml.charCodeAt(lt + 1)
    if (next === 33 /* ! */) {
      if (xml.startsWith("<!--", lt)) {
        const end = xml.indexOf("-->", lt + 4)
        if (end < 0) notRead()
        i = end + 3
        continue
      }
      if (xml.startsWith("<![CDATA[", lt) && current) {
        keepText()
        const end = xml.indexOf("]]>", lt + 9)
        if (end < 0) notRead()
        current.text += xml.slice(lt + 9, end)
        i = end + 3
        continue
      }
      return notRead() // DOCTYPE, or CDATA outside the root
    }
    if (next === 63 /* ? */) {
      if (lt !== 0 || !xml.startsWith("<?xml ", 0)) notRead()
      const end = xml.indexOf("?>", lt)
      if (end < 0) notRead()
      document["?xml"] = attributesOf(xml.slice(lt + 6, end)) ?? ""
      i = end + 2
      continue
    }
    const gt = xml.indexOf(">", lt)
    if (gt < 0) notRead()
    if (next === 47 /* / */) {
      // </name> closes the open element, white space allowed before the >.
      if (!current || !xml.startsWith(current.name, lt + 2) || !blank(xml, lt + 2 + current.name.length, gt)) notRead()
      keepText()
      close()
      i = gt + 1
      continue
    }
    keepText()
    if (rootClosed && !current) notRead() // a second root
    const selfClosing = xml.charCodeAt(gt - 1) === 47
    const tagEnd = selfClosing ? gt - 1 : gt
    let nameEnd = lt + 1
    if (!isNameStart(xml.charCodeAt(nameEnd))) notRead()
    while (++nameEnd < tagEnd && isNameChar(xml.charCodeAt(nameEnd)));
    if (nameEnd < tagEnd && !isSpace(xml.charCodeAt(nameEnd))) notRead()
    const name = xml.slice(lt + 1, nameEnd)
    // The properties every object has start with a lower-case letter or _; AltaPay's elements do not.
    if (!(xml.charCodeAt(lt + 1) <= 90) && OBJECT_PROPERTIES.has(name)) notRead()
    if (current && stack.push(current) >= settings.maxNestedTags) notRead()
    current = { name, attributes: blank(xml, nameEnd, tagEnd) ? undefined : attributesOf(xml.slice(nameEnd, tagEnd)), children: undefined, text: "" }
    i = gt + 1
    if (selfClosing) close()
  }
  keepText()
  if (current || !rootClosed) notRead()
  return document
}
