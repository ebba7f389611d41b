/**
 * No import cycles between the files of any package's src/ (or the examples'): a cycle makes
 * module initialisation order matter and hides which concept depends on which. Type-only
 * imports count (ImportGraph.ts). Folders still import each other both ways in the server
 * (http/ and idempotency/, charges/ and refunds/); the walls test checks the edge's direction.
 */
import { existsSync, readdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { cyclesOf, graphOf } from "./ImportGraph.js"

const ROOT = resolve(import.meta.dirname, "../../..")

const trees = ["packages", "examples"].flatMap((parent) =>
  readdirSync(join(ROOT, parent))
    .map((name) => join(parent, name, "src"))
    .filter((tree) => existsSync(join(ROOT, tree)))
)

describe("import cycles", () => {
  it.each(trees)("%s has none", (tree) => {
    const graph = graphOf(join(ROOT, tree))
    expect(graph.size).toBeGreaterThan(0)
    expect(cyclesOf(graph)).toStrictEqual([])
  })

  it("would find one, two files deep or through a type-only import", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
      ["e.ts", ["e.ts"]]
    ])
    expect(cyclesOf(graph)).toStrictEqual([["a.ts", "b.ts", "c.ts"], ["e.ts"]])
    expect(
      cyclesOf(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []]
        ])
      )
    ).toStrictEqual([])
  })
})
