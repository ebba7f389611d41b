/**
 * Walls: the edge (src/http/) knows no resource. Everything an http/ file imports, and
 * everything those import in turn, must be http/ itself (the edge, the contract served,
 * the groups' handlers as services, the one 503 for a store failure) or `access/` (who a
 * request is: the key resolver, the Authorization middleware, RequestKey); of the engine it
 * may reach only the idempotency of a request and the shape of a setting.
 *
 * A resource (routes/, and the engine's workflows) reaches the edge the other way round: the
 * server's composition (Server.ts) hands it over, as the processors' webhooks
 * (`KeylessRoutes`) and every group's handlers (`ApiHandlers`) are. The walk follows relative
 * imports, type-only ones included: a type names its module as surely as a value does. The
 * engine's own walls are packages/engine/test/Walls.test.ts.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Graph from "../../../scripts/ImportGraph.js"

const { relativeImports } = Graph

const SRC = resolve(import.meta.dirname, "../src")

/** What http/ may reach, as paths under src/ (a folder ends with "/"). */
const EDGE_INFRASTRUCTURE = ["http/", "access/"]

/** What http/ may reach of the engine (`@levy/engine/<path>`). */
const ENGINE_INFRASTRUCTURE = ["idempotency/", "settings/"]

/** The engine's modules an http/ file names that it may not. */
const engineBreaches = (file: string): ReadonlyArray<string> =>
  [...readFileSync(join(SRC, file), "utf8").matchAll(/["']@levy\/engine\/([^"']+)["']/g)]
    .map((match) => match[1] as string)
    .filter((path) => !ENGINE_INFRASTRUCTURE.some((entry) => path.startsWith(entry)))
    .map((path) => `${file} → @levy/engine/${path}`)

const allowed = (path: string): boolean =>
  EDGE_INFRASTRUCTURE.some((entry) =>
    entry.endsWith("/") ? path.startsWith(entry) : path === entry
  )

/** The src/-relative path of the module `specifier` names from the file `from` (src/-relative). */
const resolveImport = (from: string, specifier: string): string =>
  Graph.resolveImport(SRC, from, specifier)

/** Every file reached from `start` (src/-relative), each with the chain that reached it. */
const reach = (start: ReadonlyArray<string>): Map<string, ReadonlyArray<string>> => {
  const chains = new Map<string, ReadonlyArray<string>>(start.map((file) => [file, [file]]))
  const queue = [...start]
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const chain = chains.get(file) ?? [file]
    // Only http/ and the infrastructure are walked on: a forbidden file is reported, not followed.
    if (!allowed(file)) continue
    for (const specifier of relativeImports(readFileSync(join(SRC, file), "utf8"))) {
      const target = resolveImport(file, specifier)
      if (chains.has(target)) continue
      chains.set(target, [...chain, target])
      queue.push(target)
    }
  }
  return chains
}

const httpFiles = readdirSync(join(SRC, "http"))
  .filter((name) => name.endsWith(".ts"))
  .map((name) => `http/${name}`)

describe("walls", () => {
  it("http/ reaches only itself and the edge infrastructure, directly or through it", () => {
    const reached = reach(httpFiles)
    const breaches = [...reached]
      .filter(([file]) => !allowed(file))
      .map(([, chain]) => chain.join(" → "))
    expect(breaches).toStrictEqual([])
    expect([...reached.keys()].flatMap(engineBreaches)).toStrictEqual([])
    // The walk did walk: the edge does reach the infrastructure (else the wall proves nothing).
    for (const entry of ["access/KeyResolver.ts", "http/ServerApi.ts", "http/Unavailable.ts"]) {
      expect(reached.has(entry), entry).toBe(true)
    }
  })

  it("would see a resource imported by an http/ file, or behind the infrastructure", () => {
    expect(
      relativeImports('import { EstimateHandler } from "../estimates/EstimatesLive.js"')
    ).toStrictEqual(["../estimates/EstimatesLive.js"])
    expect(
      relativeImports(
        'import type { X } from "./X.js"\nexport * as Y from "../processorWebhooks/Y.js"\nconst z = import("../charges/Z.js")'
      )
    ).toStrictEqual(["./X.js", "../processorWebhooks/Y.js", "../charges/Z.js"])
    expect(resolveImport("http/Edge.ts", "../routes/ProcessorWebhookRoute.js")).toBe(
      "routes/ProcessorWebhookRoute.ts"
    )
    expect(allowed("routes/ProcessorWebhookRoute.ts")).toBe(false)
    expect(allowed("routes/KeysLive.ts")).toBe(false)
    expect(allowed("routes/ApiErrors.ts")).toBe(false)
    // Were the edge to import the handlers' helper, the walk would report it.
    expect(allowed("routes/HandlerIdempotency.ts")).toBe(false)
    // An http/ file naming an engine workflow is seen too.
    expect(ENGINE_INFRASTRUCTURE.some((entry) => "charges/createCharge.js".startsWith(entry))).toBe(
      false
    )
  })
})
