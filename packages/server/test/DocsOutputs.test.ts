/**
 * The outputs the README files and docs/embedding.md claim are the outputs their code prints.
 *
 * A block claims an output with a trailing comment on a `console.log(…)` line, or a comment
 * line right under it: `console.log(fee, compliant) // 300 true` says the call prints
 * `300 true` (as `console.log` formats its arguments). Every ```ts block with such a claim must be marked ```` ```ts checked ````
 * (this test fails on one that is not), and each checked block runs here, on the workspace's
 * sources, as its own module: its claims are compared with what it printed, in order, and a
 * checked block must claim something. A block runs as written but for two placeholders a
 * reader fills in: the key `"sk_dev_…"` and `"http://localhost:4000"` become a test server's.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { format } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Running, SECRET, start } from "./support.js"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../../..")
const generated = resolve(here, "../build/docs-outputs")

/** The pages whose code blocks are held to what they claim. */
const pages = [
  "README.md",
  "docs/embedding.md",
  ...readdirSync(join(root, "packages")).flatMap((dir) => {
    const readme = join("packages", dir, "README.md")
    try {
      readFileSync(join(root, readme))
      return [readme]
    } catch {
      return []
    }
  })
]

interface Block {
  readonly page: string
  readonly line: number
  readonly checked: boolean
  readonly code: string
}

/** Every ```ts block of `page` (fences may be indented, as in a list), dedented. */
const blocksOf = (page: string): ReadonlyArray<Block> => {
  const text = readFileSync(join(root, page), "utf8")
  return [...text.matchAll(/^( *)```ts( checked)?\n([\s\S]*?)^\1```$/gm)].map((m) => {
    const indent = m[1]?.length ?? 0
    return {
      page,
      line: text.slice(0, m.index).split("\n").length,
      checked: m[2] !== undefined,
      code: (m[3] ?? "")
        .split("\n")
        .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
        .join("\n")
    }
  })
}

/**
 * The output line `i` of `lines` claims: a `console.log(…) // output` line's comment, or the
 * comment line right under a `console.log(…)` line.
 */
const claimOf = (lines: ReadonlyArray<string>, i: number): string | undefined => {
  const line = lines[i] ?? ""
  const call = line.indexOf("console.log(")
  if (call < 0) return undefined
  const at = line.lastIndexOf(" // ")
  if (at > call) return line.slice(at + 4).trim()
  const next = (lines[i + 1] ?? "").trim()
  return next.startsWith("// ") ? next.slice(3).trim() : undefined
}

const claims = (code: string) => {
  const lines = code.split("\n")
  return lines.map((_, i) => claimOf(lines, i))
}

const all = pages.flatMap(blocksOf)
const checked = all.filter((b) => b.checked)

/** The claims of a block, in order, and the module running it with each claim numbered. */
const moduleOf = (block: Block, server: Running) => {
  const claimed: Array<string> = []
  const code = block.code
    .replaceAll('"sk_dev_…"', JSON.stringify(SECRET))
    .replaceAll('"http://localhost:4000"', JSON.stringify(server.url))
  const byLine = claims(code)
  const lines = code.split("\n").map((line, i) => {
    const claim = byLine[i]
    if (claim === undefined) return line
    claimed.push(claim)
    return line.replace("console.log(", `console.claim(${claimed.length - 1}, `)
  })
  const isImport = (l: string) => l.startsWith("import ")
  const imports = lines
    .filter(isImport)
    .map((l) =>
      l.replace(/"@levy\/(\w+)"/, (_, name: string) =>
        JSON.stringify(pathToFileURL(join(root, "packages", name, "src/index.ts")).href)
      )
    )
  const body = lines.filter((l) => !isImport(l))
  return {
    claims: claimed,
    source: [...imports, "export default async (console) => {", ...body, "}"].join("\n")
  }
}

describe("README files and docs/embedding.md print what they claim", () => {
  let server: Running
  beforeAll(async () => {
    server = await start({ edge: { test: 10_000, live: 10_000 } })
    mkdirSync(generated, { recursive: true })
  })
  afterAll(() => server.close())

  it("every block that claims an output is checked, and every checked block claims one", () => {
    const claiming = (b: Block) => claims(b.code).some((c) => c !== undefined)
    const unchecked = all.filter((b) => !b.checked && claiming(b)).map((b) => `${b.page}:${b.line}`)
    expect(unchecked, "blocks claiming an output without ```ts checked").toStrictEqual([])
    const silent = checked.filter((b) => !claiming(b)).map((b) => `${b.page}:${b.line}`)
    expect(silent, "checked blocks that claim nothing").toStrictEqual([])
    // The pages the issue named have their checked blocks.
    expect(checked.map((b) => b.page)).toEqual(
      expect.arrayContaining(["docs/embedding.md", "packages/core/README.md"])
    )
  })

  it.each(checked.map((b) => [`${b.page}:${b.line}`, b] as const))(
    "%s prints what it claims",
    async (name, block) => {
      const { claims, source } = moduleOf(block, server)
      const file = join(generated, `${name.replace(/[^\w]+/g, "_")}.ts`)
      writeFileSync(file, source)
      const printed: Array<Array<string>> = claims.map(() => [])
      const console = {
        log: () => undefined,
        claim: (index: number, ...args: Array<unknown>) => {
          printed[index]?.push(format(...args))
        }
      }
      const run = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
        default: (c: typeof console) => Promise<void>
      }
      await run.default(console)
      expect(
        printed,
        `${name} (${relative(root, file)}): what each claimed console.log printed`
      ).toStrictEqual(claims.map((claim) => [claim]))
    },
    30_000
  )
})
