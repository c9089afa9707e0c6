/**
 * Running TypeScript that is not part of this repository's build as it ships to readers: a code
 * block of a docs page, a file of the storefront kit (whose `@lib/...` imports name the starter's
 * modules). Each module is transpiled alone (types are the type-check's job) and evaluated with a
 * require that serves the given modules first.
 */
import ts from "typescript"

export type Modules = Record<string, unknown>

/** The exports of `source`, whose imports are served from `modules` (by specifier), else refused. */
export function runTs(source: string, modules: Modules = {}): Record<string, unknown> {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, jsx: ts.JsxEmit.ReactJSX, esModuleInterop: true },
  })
  const exports: Record<string, unknown> = {}
  const require = (specifier: string) => {
    if (specifier in modules) return modules[specifier]
    throw new Error(`runTs: no module "${specifier}" was given`)
  }
  new Function("exports", "require", outputText)(exports, require)
  return exports
}
