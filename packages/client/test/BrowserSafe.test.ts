/**
 * The client runs in browsers: nothing it imports, down through @levy/api and @levy/core,
 * is a Node built-in. Follows the relative and workspace imports from src/index.ts.
 */
import { readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"

const packages = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const workspace: Record<string, string> = {
  "@levy/api": join(packages, "api/src/index.ts"),
  "@levy/core": join(packages, "core/src/index.ts"),
  "@levy/rules": join(packages, "rules/src/index.ts"),
  "@levy/rules/versions": join(packages, "rules/src/versions.ts")
}

const importsOf = (file: string): Array<string> =>
  [...readFileSync(file, "utf8").matchAll(/(?:import|export)[^"']*?from\s+["']([^"']+)["']/g)].map(
    (m) => m[1] ?? ""
  )

const graph = (entry: string) => {
  const files = new Set<string>()
  const external = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const spec of importsOf(file)) {
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec.replace(/\.js$/, ".ts")))
      else if (workspace[spec] !== undefined) visit(workspace[spec])
      else external.add(spec)
    }
  }
  visit(entry)
  return { files, external }
}

describe("browser path", () => {
  it("imports no Node built-in", () => {
    const { files, external } = graph(join(packages, "client/src/index.ts"))
    expect(files.size).toBeGreaterThan(20)
    const node = [...external].filter((spec) => spec.startsWith("node:") || spec === "crypto")
    expect(node).toEqual([])
    expect(
      [...external].every((spec) => spec === "effect" || spec.startsWith("@effect/platform/"))
    ).toBe(true)
  })
})
