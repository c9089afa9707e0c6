/**
 * Catalogues of texts: typed keys, one complete map per language, `{{name}}` placeholders (the
 * syntax of Medusa's admin, i18next's), and a text that changes with a number. Browser-safe.
 */
import type { Language } from "./languages"

/** `one` for 1 and `other` for any other number: how all six languages count. */
export interface Plural {
  one: string
  other: string
}
export type Text = string | Plural
export interface TextTree {
  [key: string]: Text | TextTree
}

/** Every key of a catalogue as a dotted path to one text ("panel.reserved"). */
export type TextKey<T> = {
  [K in keyof T & string]: T[K] extends Text ? K : `${K}.${TextKey<T[K]>}`
}[keyof T & string]

/** The shape every other language's map must have: the same keys, each its own words. */
export type Translation<T> = { [K in keyof T]: T[K] extends string ? string : T[K] extends Plural ? Plural : Translation<T[K]> }

export type TextValues = Record<string, string | number>

export type Catalogues<T> = Record<Language, Translation<T>>

const isPlural = (value: unknown): value is Plural =>
  typeof value === "object" && value !== null && typeof (value as Plural).one === "string" && typeof (value as Plural).other === "string"

/** The text at a dotted key, or undefined. */
export function textAt(tree: unknown, key: string): Text | undefined {
  // Own keys only: a key is a path through the catalogue, never into Object.prototype.
  const found = key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" && Object.hasOwn(node, part) ? (node as TextTree)[part] : undefined), tree)
  return typeof found === "string" || isPlural(found) ? found : undefined
}

/** The template for these values: a Plural's `one` when `count` is 1, else its `other`. */
export const templateOf = (text: Text, values: TextValues = {}): string => (typeof text === "string" ? text : values.count === 1 ? text.one : text.other)

/** The text with each {{name}} replaced by its value (a name without a value stays as it is). */
export function fill(text: Text, values: TextValues = {}): string {
  return templateOf(text, values).replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole))
}

/** A template cut at its placeholders: words, and `{ name }` where a value (or an element) goes. */
export function templateParts(template: string): Array<string | { name: string }> {
  return template.split(/(\{\{\s*\w+\s*\}\})/).flatMap((part): Array<string | { name: string }> => {
    const name = /^\{\{\s*(\w+)\s*\}\}$/.exec(part)?.[1]
    return name ? [{ name }] : part ? [part] : []
  })
}

/** `t(key, values)` for one language, English where a text is missing (a catalogue a shop changed by hand). */
export function translator<T extends TextTree>(catalogues: Catalogues<T>, language: Language): (key: TextKey<T>, values?: TextValues) => string {
  return (key, values) => {
    const text = textAt(catalogues[language], key) ?? textAt(catalogues.en, key)
    return text === undefined ? key : fill(text, values)
  }
}

/** Every dotted key of a tree (its texts' paths), for the completeness tests. */
export function keysOf(tree: TextTree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === "string" || isPlural(value) ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`)))
}
