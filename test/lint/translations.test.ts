/**
 * Issue 43: the shop's languages. Every text of the admin widgets and pages, of the storefront kit,
 * and every message the server writes for a customer exists in English, Danish, Swedish, Norwegian,
 * Finnish and German. Two halves:
 *
 * - each catalogue (src/admin/i18n, the kit's src/lib/util/altapay-i18n.ts,
 *   src/lib/languages/customer-messages.ts) has every English key in every language, with words of
 *   its own (a text equal to the English is allowed only where listed below) and the same {{placeholders}};
 *   the kit's copies of the plugin's customer messages are the plugin's, word for word;
 * - no text in src/admin (outside src/admin/i18n) or the kit is a literal: JSX text, a string in a
 *   text-bearing prop (label, title, description, aria-label, …), a toast's or a prompt's words, or
 *   any string that reads as words, unless it is a catalogue key or a log line.
 */
import fs from "node:fs"
import path from "node:path"
import ts from "typescript"
import { ADMIN_CATALOGUES, ADMIN_NAMESPACE } from "../../src/admin/i18n/catalogues"
import { en as adminEnglish } from "../../src/admin/i18n/en"
import { CUSTOMER_MESSAGES } from "../../src/lib/languages/customer-messages"
import { LANGUAGES } from "../../src/lib/languages/languages"
import { keysOf, textAt, type Plural, type TextTree } from "../../src/lib/languages/text"
import { ALTAPAY_LANGUAGES, ALTAPAY_TEXTS } from "../../storefronts/nextjs-starter/src/lib/util/altapay-i18n"

const ROOT = path.resolve(__dirname, "../..")
const KIT_SRC = "storefronts/nextjs-starter/src"

/** Texts that are rightly the same as the English in some language: names, numbers, loan words. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  "admin:panel.title": LANGUAGES.slice(1),
  // Each language by its own name, as Medusa's language menu lists them.
  "admin:language.names.da": LANGUAGES.slice(1),
  "admin:language.names.nb": LANGUAGES.slice(1),
  "admin:panel.terminal": ["da", "sv", "nb", "de"],
  "admin:panel.chargeback": ["da"],
  "admin:payouts.exceptions.kinds.chargeback": ["da"],
  "admin:payouts.lines.medusaAmount": LANGUAGES.slice(1),
  "admin:payouts.exceptions.daysFor": LANGUAGES.slice(1),
  "admin:payouts.import.account": LANGUAGES.slice(1),
  "admin:agreementCharge.chargedDetail": LANGUAGES.slice(1),
  "admin:payouts.summary.acquirer": ["fi", "de"],
  "admin:payouts.summary.shops": ["de"],
  "admin:refundDrawer.note": ["da"],
  "admin:payouts.lines.type": ["da", "nb"],
  "admin:payouts.lines.order": ["sv"],
  "admin:payouts.exceptions.order": ["sv"],
  "admin:payouts.exceptions.inMedusa": ["de"],
  "customer:reference_note": ["da"],
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()
const forms = (text: string | Plural) => (typeof text === "string" ? [text] : [text.one, text.other])

interface Catalogue {
  name: string
  languages: readonly string[]
  text(language: string, key: string): string | Plural | undefined
  keys(language: string): string[]
}

const catalogues: Catalogue[] = [
  {
    name: "admin",
    languages: LANGUAGES,
    text: (language, key) => textAt(ADMIN_CATALOGUES[language as keyof typeof ADMIN_CATALOGUES], key),
    keys: (language) => keysOf(ADMIN_CATALOGUES[language as keyof typeof ADMIN_CATALOGUES] as unknown as TextTree),
  },
  {
    name: "customer",
    languages: LANGUAGES,
    text: (language, key) => (CUSTOMER_MESSAGES[language as keyof typeof CUSTOMER_MESSAGES] as Record<string, string>)[key],
    keys: (language) => Object.keys(CUSTOMER_MESSAGES[language as keyof typeof CUSTOMER_MESSAGES]),
  },
  {
    name: "kit",
    languages: ALTAPAY_LANGUAGES,
    text: (language, key) => (ALTAPAY_TEXTS[language as keyof typeof ALTAPAY_TEXTS] as Record<string, string>)[key],
    keys: (language) => Object.keys(ALTAPAY_TEXTS[language as keyof typeof ALTAPAY_TEXTS]),
  },
]

describe.each(catalogues)("the $name catalogue", (catalogue) => {
  const english = catalogue.keys("en")

  it("is in the six languages", () => {
    expect([...catalogue.languages]).toEqual(["en", "da", "sv", "nb", "fi", "de"])
    expect(english.length).toBeGreaterThan(5)
  })

  it.each(["da", "sv", "nb", "fi", "de"])("has every key in %s, each its own words with the English placeholders, and no other keys", (language) => {
    const problems: string[] = []
    for (const key of english) {
      const mine = catalogue.text(language, key)
      const theirs = catalogue.text("en", key)!
      if (mine === undefined) {
        problems.push(`${key}: missing`)
        continue
      }
      if (typeof mine !== typeof theirs) problems.push(`${key}: ${typeof theirs === "string" ? "a text" : "one and other"} in English`)
      const [mineForms, theirForms] = [forms(mine), forms(theirs)]
      mineForms.forEach((text, i) => {
        if (!text.trim()) problems.push(`${key}: empty`)
        if (placeholders(text).join() !== placeholders(theirForms[i] ?? theirForms[0]).join())
          problems.push(`${key}: placeholders ${placeholders(text)} not the English ${placeholders(theirForms[i] ?? "")}`)
      })
      const same = mineForms.join("|") === theirForms.join("|")
      if (same && !(SAME_AS_ENGLISH[`${catalogue.name}:${key}`] ?? []).includes(language) && /\p{L}{3,}/u.test(theirForms.join(" ").replace(/\{\{\w+\}\}/g, "")))
        problems.push(`${key}: left in English ("${theirForms[0]}")`)
    }
    for (const key of catalogue.keys(language)) if (!english.includes(key)) problems.push(`${key}: not an English key`)
    expect(problems).toEqual([])
  })
})

describe("the admin's sidebar label", () => {
  it("is translated in our namespace: a key of the catalogue, and translationNs as the literal Medusa's build reads", () => {
    const page = fs.readFileSync(path.join(ROOT, "src/admin/routes/payouts/page.tsx"), "utf8")
    const config = /defineRouteConfig\(\{ label: "([^"]+)", translationNs: "([^"]+)"/.exec(page)
    expect(config?.[2]).toBe(ADMIN_NAMESPACE)
    expect(keysOf(adminEnglish as unknown as TextTree)).toContain(config?.[1])
  })
})

describe("the kit's copies of the plugin's customer messages", () => {
  it.each(["saved_card_not_yours", "saved_card_removed", "saved_card_declined", "earlier_attempt_pending", "cart_changed_after_payment"] as const)(
    "%s is the plugin's, word for word, in every language",
    (key) => {
      for (const language of LANGUAGES) expect([language, ALTAPAY_TEXTS[language][key]]).toEqual([language, CUSTOMER_MESSAGES[language][key]])
    }
  )
})

// --- No literal texts --------------------------------------------------------------------------

/** Attributes and properties whose strings are never shown: classes, ids, routes, keys, variants. */
const NOT_TEXT = new Set([
  "className",
  "id",
  "key",
  "href",
  "to",
  "target",
  "rel",
  "type",
  "name",
  "htmlFor",
  "inputId",
  "testId",
  "value",
  "role",
  "zone",
  "variant",
  "size",
  "color",
  "weight",
  "leading",
  "level",
  "dir",
  "filename",
  "download",
  "path",
  "method",
  "fields",
  "cache",
  "sameSite",
  "dynamic",
  "content-type",
  "cache-control",
  "location",
  "authorization",
])
/** Properties and attributes that are text whatever their words. */
const TEXT_PROPS = new Set(["label", "title", "description", "placeholder", "aria-label", "alt", "content", "confirmText", "cancelText", "detail", "error", "message"])
/** Calls whose string arguments are not shown to anyone but a developer or the log (the kit's `failed` logs what failed). */
const NOT_SHOWN_CALLS =
  /^(console\.\w+|logger\.\w+|failed|new Error|new RegExp|require|import|useTranslation|sdk\.client\.fetch|adminFetch|cookies\(\)\.get|\w+\.get|\w+\.set|\w+\.getAttribute|setTimeout|encodeURIComponent)$/

const translationKeys = new Set([...keysOf(adminEnglish as unknown as TextTree), ...Object.keys(ALTAPAY_TEXTS.en)])

/** Reads as words a person would read: two words, or a capitalised word. */
const readsAsWords = (text: string) => /\p{L}{2,}[’']?\p{L}*\s+\p{L}{2,}/u.test(text) || /(^|\s)\p{Lu}\p{Ll}{2,}/u.test(text)

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const child = `${dir}/${entry.name}`
    if (entry.isDirectory()) return child === "src/admin/i18n" ? [] : sourceFiles(child)
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts") && child !== `${KIT_SRC}/lib/util/altapay-i18n.ts` ? [child] : []
  })
}

/** The name of the call a node is an argument of ("toast.error", "t"), or undefined. */
function callName(node: ts.Node): string | undefined {
  const parent = node.parent
  if (!parent || !(ts.isCallExpression(parent) || ts.isNewExpression(parent)) || !parent.arguments?.includes(node as ts.Expression)) return undefined
  const callee = parent.expression.getText()
  return ts.isNewExpression(parent) ? `new ${callee}` : callee
}

/** The JSX attribute or object property a string sits in (through conditionals and template parts), or undefined. */
function owner(node: ts.Node): { kind: "attribute" | "property" | "child"; name: string } | undefined {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isJsxAttribute(at)) return { kind: "attribute", name: at.name.getText() }
    if (ts.isPropertyAssignment(at)) return { kind: "property", name: at.name.getText().replace(/^["']|["']$/g, "") }
    if (ts.isJsxExpression(at) && (ts.isJsxElement(at.parent) || ts.isJsxFragment(at.parent))) return { kind: "child", name: "" }
    if (!(ts.isConditionalExpression(at) || ts.isBinaryExpression(at) || ts.isParenthesizedExpression(at) || ts.isTemplateSpan(at) || ts.isTemplateExpression(at))) return undefined
  }
  return undefined
}

/** The file's literal texts: `line: text`. */
function literalTexts(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8")
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const found: string[] = []
  const report = (node: ts.Node, words: string) => found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${words.trim().slice(0, 80)}`)
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      if (/\p{L}/u.test(node.text)) report(node, node.text)
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      check(node)
      if (ts.isTemplateExpression(node)) node.templateSpans.forEach((span) => visit(span.expression))
      return
    }
    ts.forEachChild(node, visit)
  }
  const check = (node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression) => {
    const words = (ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(" {} ") : node.text).replace(/<[^>]*>/g, " ")
    if (!/\p{L}{2,}/u.test(words) || translationKeys.has(words)) return
    const parent = node.parent
    if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent) || ts.isLiteralTypeNode(parent)) return
    if (ts.isExpressionStatement(parent)) return // "use client", "use server"
    if (ts.isPropertyAssignment(parent) && parent.name === node) return
    if (ts.isElementAccessExpression(parent) || ts.isCaseClause(parent)) return
    if (ts.isBinaryExpression(parent) && /^(===|!==|==|!=|in)$/.test(parent.operatorToken.getText())) return
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && /\.name$/.test(parent.left.getText())) return // an error class's name
    const call = callName(node)
    if (call && NOT_SHOWN_CALLS.test(call)) return
    if (call && /^(t|tx|altapayText|say)$/.test(call)) return // a key, checked by the types
    const where = owner(node)
    if (where && (NOT_TEXT.has(where.name) || where.name.startsWith("data-"))) return
    const shown = where?.kind === "child" || (where && TEXT_PROPS.has(where.name)) || (call !== undefined && /^(toast\.\w+|prompt)$/.test(call))
    if (shown || readsAsWords(words)) report(node, words)
  }
  visit(source)
  return found
}

describe("no literal texts", () => {
  const admin = sourceFiles("src/admin")
  const kit = sourceFiles(KIT_SRC)

  it("reads the admin's widgets, pages, components and helpers, and the kit's files", () => {
    expect(admin).toEqual(expect.arrayContaining(["src/admin/widgets/altapay-order-panel.tsx", "src/admin/routes/payouts/page.tsx", "src/admin/lib/format.ts"]))
    expect(kit).toEqual(expect.arrayContaining([`${KIT_SRC}/app/api/altapay/landing/route.ts`, `${KIT_SRC}/modules/checkout/components/altapay-payment-button/index.tsx`]))
  })

  it("finds a literal where there is one (the rule itself)", () => {
    const probe = path.join(ROOT, "test/lint/.translations-probe.tsx")
    fs.writeFileSync(
      probe,
      [
        `const A = () => <p title="Saved cards">Place order</p>`,
        `const B = (ok: boolean) => <p>{ok ? "Paid out" : t("panel.title")}</p>`,
        `toast.error("failed")`,
        `const C = { label: "Reserve" }`,
        "const D = `${amount} is outstanding on this order.`",
        `const E = <p className="text-ui-fg-subtle flex" data-testid="altapay-panel">{t("panel.reserved")}</p>`,
        `console.error("AltaPay: the saved card could not be deleted")`,
      ].join("\n")
    )
    try {
      expect(literalTexts("test/lint/.translations-probe.tsx").map((line) => line.replace(/^[^:]+:/, ""))).toEqual([
        "1: Saved cards",
        "1: Place order",
        "2: Paid out",
        "3: failed",
        "4: Reserve",
        "5: {}  is outstanding on this order.",
      ])
    } finally {
      fs.rmSync(probe)
    }
  })

  it.each([
    ["src/admin", admin],
    ["the kit", kit],
  ])("in %s: every text comes from the catalogue", (_name, files) => {
    expect(files.flatMap(literalTexts)).toEqual([])
  })
})
