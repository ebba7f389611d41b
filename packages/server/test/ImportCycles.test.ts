/**
 * No import cycles between the files of any package's src/ (or the examples'): a cycle makes
 * module initialisation order matter and hides which concept depends on which. Type-only
 * imports count (scripts/ImportGraph.ts). Nor between folders: a folder that imports another
 * which imports it back is one concept split in two, or two tangled (docs/architecture.md).
 */
import { existsSync, readdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { cyclesOf, folderGraphOf, graphOf } from "../../../scripts/ImportGraph.js"

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

  it.each(trees)("%s has no folders importing each other in a circle", (tree) => {
    expect(cyclesOf(folderGraphOf(graphOf(join(ROOT, tree))))).toStrictEqual([])
  })

  it("would find folders in a circle, and leaves out top-level files and nested folders", () => {
    const files = new Map([
      ["main.ts", ["cli/Args.ts"]],
      ["Server.ts", ["http/Edge.ts"]],
      ["cli/Args.ts", ["Server.ts"]],
      ["http/Edge.ts", ["charges/Charge.ts"]],
      ["charges/Charge.ts", ["refunds/Refund.ts", "processors/stripe/Stripe.ts"]],
      ["refunds/Refund.ts", ["charges/Phases.ts"]],
      ["charges/Phases.ts", []],
      ["processors/stripe/Stripe.ts", ["processors/Port.ts"]],
      ["processors/Port.ts", []]
    ])
    // main.ts imports cli/ and cli/ imports the top-level Server.ts: not a circle of folders.
    expect(cyclesOf(folderGraphOf(files))).toStrictEqual([["charges", "refunds"]])
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
