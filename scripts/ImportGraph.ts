/**
 * The import graph of a source tree, for the walls and the cycle check: the relative modules each
 * file imports or re-exports (static and dynamic, type-only ones included: a type names its
 * module as surely as a value does), resolved to files.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"

/** Every module a source text imports or re-exports (static and dynamic), as written. */
export const moduleSpecifiers = (text: string): ReadonlyArray<string> =>
  [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map(
    (match) => match[1] as string
  )

/** The relative modules a source text imports or re-exports (static and dynamic). */
export const relativeImports = (text: string): ReadonlyArray<string> =>
  moduleSpecifiers(text).filter((specifier) => /^\.{1,2}\//.test(specifier))

/** The `root`-relative path of the module `specifier` names from the file `from` (root-relative). */
export const resolveImport = (root: string, from: string, specifier: string): string =>
  relative(root, join(root, dirname(from), specifier)).replace(/\.js$/, ".ts")

/** Every .ts file under `root`, root-relative. */
export const sourceFiles = (root: string): ReadonlyArray<string> =>
  (readdirSync(root, { recursive: true }) as Array<string>)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .sort()

/** The files each file under `root` imports (those under `root` only). */
export const graphOf = (root: string): ReadonlyMap<string, ReadonlyArray<string>> => {
  const files = new Set(sourceFiles(root))
  return new Map(
    [...files].map((file) => [
      file,
      relativeImports(readFileSync(join(root, file), "utf8"))
        .map((specifier) => resolveImport(root, file, specifier))
        .filter((target) => files.has(target))
    ])
  )
}

/** The groups of files that import each other in a circle (Tarjan's strongly connected components). */
export const cyclesOf = (
  graph: ReadonlyMap<string, ReadonlyArray<string>>
): ReadonlyArray<ReadonlyArray<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const cycles: Array<Array<string>> = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file) as number)
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number))
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const group: Array<string> = []
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      onStack.delete(top)
      group.push(top)
      if (top === file) break
    }
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(group.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return cycles
}

/** The top-level folder a root-relative file sits in ("." for the root's own files). */
const folderOf = (file: string): string =>
  file.includes("/") ? (file.split("/")[0] as string) : "."

/**
 * The folders each folder imports, from a file graph; a nested folder counts as its top-level
 * one (processors/stripe is processors). A package's top-level files are left out: they are
 * its front and its composition (index.ts, main.ts, Server.ts, Storage.ts's layers), which
 * import the folders, and its shared vocabulary, which the folders import; the rule is
 * between the folders, one concept each.
 */
export const folderGraphOf = (
  graph: ReadonlyMap<string, ReadonlyArray<string>>
): ReadonlyMap<string, ReadonlyArray<string>> => {
  const folders = new Map<string, Set<string>>()
  for (const [file, targets] of graph) {
    const from = folderOf(file)
    if (from === ".") continue
    const into = folders.get(from) ?? new Set<string>()
    folders.set(from, into)
    for (const target of targets) {
      const to = folderOf(target)
      if (to !== from && to !== ".") into.add(to)
    }
  }
  return new Map([...folders].map(([folder, into]) => [folder, [...into].sort()]))
}
