/**
 * The engine's walls (docs/architecture.md): it knows nothing of HTTP or of its doors. No file
 * of packages/engine/src imports a door (@levy/server, the CLI's or HTTP's libraries) or a
 * file outside the engine; none names the API's HTTP errors or a status code; the package
 * depends on no door's library; and no door reaches into the engine's files but through
 * `@levy/engine`. The walk reads every import, type-only ones included.
 */
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Graph from "../../../scripts/ImportGraph.js"

const ROOT = resolve(import.meta.dirname, "../../..")
const SRC = resolve(import.meta.dirname, "../src")

/** Libraries the engine may use: Effect, our own lower packages, the processors' SDKs. */
const LIBRARIES = new Set([
  "effect",
  "@levy/core",
  "@levy/api",
  "@levy/storage",
  "stripe",
  "@adyen/api-library",
  "undici",
  "ipaddr.js"
])

/** Node's modules that serve HTTP: the doors' business. */
const NODE_SERVING = new Set(["node:http", "node:https", "node:http2"])

/** Why `specifier`, imported by `file` (src-relative), breaks the wall; undefined when it does not. */
const breach = (file: string, specifier: string): string | undefined => {
  if (specifier.startsWith(".")) {
    const target = Graph.resolveImport(SRC, file, specifier)
    return target.startsWith("..") ? `${file} imports ${specifier}, outside the engine` : undefined
  }
  if (specifier.startsWith("node:"))
    return NODE_SERVING.has(specifier) ? `${file} imports ${specifier}` : undefined
  return LIBRARIES.has(specifier) ? undefined : `${file} imports ${specifier}`
}

/** The API's HTTP face: its error classes, the HttpApi, the request's key in its context. */
const HTTP_NAMES = /\b(ApiError|LevyApi|Authorization|CurrentKey|HttpApi\w*|HttpServer\w*)\b/
/**
 * A status code as an answer's (`status: 404`). The status a processor or a webhook receiver
 * answered the engine (`statusCode`) is the engine's own business as their client.
 */
const STATUS = /\bstatus\s*[:=]\s*[1-5]\d\d\b/

/** The lines of `text` that name the HTTP face or a status code, outside comments. */
const httpLines = (text: string): ReadonlyArray<string> =>
  text
    .split("\n")
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .filter((line) => HTTP_NAMES.test(line) || STATUS.test(line))

const files = Graph.sourceFiles(SRC)

describe("the engine's walls", () => {
  it("imports no door, no door's library and no file outside the engine", () => {
    const breaches = files.flatMap((file) =>
      Graph.moduleSpecifiers(readFileSync(join(SRC, file), "utf8")).flatMap(
        (s) => breach(file, s) ?? []
      )
    )
    expect(breaches).toStrictEqual([])
    expect(files.length).toBeGreaterThan(100)
  })

  it("names no HTTP error, no HTTP request context and no status code", () => {
    const found = Object.fromEntries(
      files.flatMap((file) => {
        const lines = httpLines(readFileSync(join(SRC, file), "utf8"))
        return lines.length === 0 ? [] : [[file, lines]]
      })
    )
    expect(found).toStrictEqual({})
  })

  it("depends on no door's library", () => {
    const pkg = JSON.parse(readFileSync(resolve(SRC, "../package.json"), "utf8")) as {
      readonly dependencies: Record<string, string>
    }
    const doors = Object.keys(pkg.dependencies).filter(
      (name) =>
        name.startsWith("@effect/platform") ||
        name === "@effect/cli" ||
        name === "@effect/experimental" ||
        name === "ioredis" ||
        name === "@levy/server"
    )
    expect(doors).toStrictEqual([])
  })

  it("is reached by its doors only through @levy/engine, never by a path into its files", () => {
    const doorTrees = ["packages/server/src", "packages/server/test", "packages/server/bench"]
    const reaching = doorTrees.flatMap((tree) =>
      Graph.sourceFiles(join(ROOT, tree)).flatMap((file) =>
        Graph.relativeImports(readFileSync(join(ROOT, tree, file), "utf8"))
          .filter((specifier) => specifier.includes("engine/"))
          .map((specifier) => `${tree}/${file} imports ${specifier}`)
      )
    )
    expect(reaching).toStrictEqual([])
  })

  it("would see a door imported, a file outside, the HTTP face and a status code", () => {
    expect(breach("charges/createCharge.ts", "@levy/server")).toBeDefined()
    expect(breach("charges/createCharge.ts", "@effect/platform/HttpServerResponse")).toBeDefined()
    expect(breach("charges/createCharge.ts", "node:http")).toBeDefined()
    expect(
      breach("charges/createCharge.ts", "../../../server/src/routes/ApiErrors.js")
    ).toBeDefined()
    expect(breach("charges/createCharge.ts", "../refunds/RefundErrors.js")).toBeUndefined()
    expect(breach("charges/createCharge.ts", "node:crypto")).toBeUndefined()
    expect(httpLines('import { ApiError } from "@levy/api"')).toHaveLength(1)
    expect(httpLines("  return { status: 402, body }")).toHaveLength(1)
    expect(httpLines('  status: "succeeded",')).toHaveLength(0)
    expect(httpLines(" * the API answers a 404 (ApiError)")).toHaveLength(0)
  })
})
