/**
 * Every package declares only what its own code imports: an unused
 * dependency is attack surface and install weight for nothing, and a library's peers are
 * its consumers' to provide, not its own dependencies.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"

const PACKAGES = resolve(import.meta.dirname, "../..")

/** Every .ts file under `dir` (node_modules and build output skipped). */
const sources = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === "dist") return []
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : []
  })

/** The package names a file imports (`from "x"`, `import("x")`, `import "x"`). */
const importsOf = (text: string): Set<string> => {
  const names = new Set<string>()
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"'.][^"']*)["']/g)) {
    const spec = m[1] ?? ""
    const parts = spec.split("/")
    names.add(spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? spec))
  }
  return names
}

describe("declared dependencies", () => {
  for (const pkg of readdirSync(PACKAGES)) {
    const dir = join(PACKAGES, pkg)
    let manifest: { dependencies?: Record<string, string> }
    try {
      manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
    } catch {
      continue
    }
    it(`${pkg}: every dependency is imported by its code`, () => {
      const used = new Set<string>()
      for (const file of sources(dir)) {
        if (file.includes(`${join(dir, "test")}/`)) continue
        for (const name of importsOf(readFileSync(file, "utf8"))) used.add(name)
      }
      const unused = Object.keys(manifest.dependencies ?? {}).filter((d) => !used.has(d))
      expect(unused).toStrictEqual([])
    })
  }
})
