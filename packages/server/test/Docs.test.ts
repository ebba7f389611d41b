/**
 * The public documentation over real HTTP: `GET /v1/openapi.json` (the full `LevyApi`
 * contract, OpenAPI 3.1) and the Scalar page at `GET /docs`, without a key, cacheable, not
 * rate-limited; the edge's 404/405 handling unchanged around them.
 */
import { createHash } from "node:crypto"
import * as HttpApi from "@effect/platform/HttpApi"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { LevyApi } from "@levy/api"
import { call, type Running, start } from "./support.js"

let server: Running

beforeAll(async () => {
  // A tiny keyless limit: the docs must not count against it.
  server = await start({ edge: { anonymous: 2 } })
})
afterAll(async () => {
  await server.close()
})

type Json = Record<string, unknown>

interface Schema {
  readonly $ref?: string
  readonly required?: ReadonlyArray<string>
  readonly properties?: Record<string, Schema>
}
interface Operation {
  readonly responses: Record<
    string,
    { readonly content?: Record<string, { readonly schema?: Schema }> } | undefined
  >
}
interface Spec {
  readonly openapi: string
  readonly info: Json
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, Schema> }
}

/** The contract's operations as `METHOD /path/{param}`, from the HttpApi definition itself. */
const contract = (): ReadonlyArray<string> => {
  const found: Array<string> = []
  HttpApi.reflect(LevyApi.LevyApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      found.push(`${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`)
    }
  })
  return found
}

const expectSpecError = (body: unknown, code: string) => {
  const error = (body as { error: Json }).error
  expect(Object.keys(body as Json)).toStrictEqual(["error"])
  expect(error.code).toBe(code)
  expect(typeof error.type).toBe("string")
  expect(typeof error.message).toBe("string")
}

describe("GET /v1/openapi.json", () => {
  it("serves the OpenAPI 3.1 document of the full contract without a key", async () => {
    const reply = await call(server.url, "GET", "/v1/openapi.json", { key: null })
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/)
    expect(reply.headers.get("cache-control")).toBe("public, max-age=300")
    expect(reply.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/)
    expect(reply.headers.get("request-id")).toMatch(/^req_[0-9a-f]{24}$/)
    const spec = reply.body as Spec
    expect(spec.openapi).toBe("3.1.0")
    expect(spec.info).toMatchObject({ title: "Levy API", version: "2025-01" })

    const operations: Array<string> = []
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        operations.push(`${method.toUpperCase()} ${path}`)
        expect(Object.keys(op.responses).length, path).toBeGreaterThan(0)
      }
    }
    const expected = contract()
    expect(expected.length).toBeGreaterThan(20)
    // Every /v1 path of the contract, including the groups not served yet (e.g. charges).
    expect(operations.sort()).toStrictEqual([...expected].sort())
    expect(operations).toContain("POST /v1/charges")

    // Every $ref resolves to a component.
    const schemas = spec.components.schemas
    const refs = [...reply.text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)]
    expect(refs.length).toBeGreaterThan(0)
    for (const [, name] of refs) expect(schemas, name).toHaveProperty(name as string)

    expect(reply.text).not.toContain("HttpApiDecodeError")
  })

  it("declares the error responses with the {error:{type,code,message,param}} schema", async () => {
    const { body } = await call(server.url, "GET", "/v1/openapi.json", { key: null })
    const spec = body as Spec
    const ref = (op: Operation, status: string) =>
      op.responses[status]?.content?.["application/json"]?.schema?.$ref
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const op of Object.values(item)) {
        expect(ref(op, "400"), path).toBe("#/components/schemas/InvalidRequestError")
        expect(ref(op, "401"), path).toBe("#/components/schemas/AuthenticationError")
        expect(ref(op, "429"), path).toBe("#/components/schemas/RateLimitError")
        expect(ref(op, "500"), path).toBe("#/components/schemas/ApiError")
      }
    }
    const error = spec.components.schemas.InvalidRequestError
    expect(error?.required).toStrictEqual(["error"])
    expect(error?.properties?.error?.required).toStrictEqual(["type", "code", "message"])
    expect(Object.keys(error?.properties?.error?.properties ?? {})).toStrictEqual([
      "type",
      "code",
      "message",
      "param"
    ])
  })

  it("answers 304 to a matching If-None-Match", async () => {
    const first = await call(server.url, "GET", "/v1/openapi.json", { key: null })
    const etag = first.headers.get("etag") ?? ""
    const second = await call(server.url, "GET", "/v1/openapi.json", {
      key: null,
      headers: { "if-none-match": etag }
    })
    expect(second.status).toBe(304)
    expect(second.text).toBe("")
    expect(second.headers.get("etag")).toBe(etag)
  })
})

describe("GET /docs", () => {
  it("answers HTML embedding the same document, self-contained (no CDN)", async () => {
    const reply = await call(server.url, "GET", "/docs", { key: null })
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toMatch(/^text\/html/)
    expect(reply.headers.get("cache-control")).toBe("public, max-age=300")
    expect(reply.text).toMatch(/^<!doctype html>/i)
    expect(reply.text).toContain("<title>Levy API</title>")
    expect(reply.text).toContain('id="api-reference"')
    // Scalar's script is inlined: no external <script src>.
    expect(reply.text).not.toMatch(/<script[^>]*\ssrc=/i)
    expect(reply.text.length).toBeGreaterThan(1_000_000)
    // The embedded document is the served one (full contract, no decode error).
    const embedded =
      /<script id="api-reference" type="application\/json">([\s\S]*?)<\/script>/.exec(
        reply.text
      )?.[1]
    expect(embedded).toBeDefined()
    const served = await call(server.url, "GET", "/v1/openapi.json", { key: null })
    expect(JSON.parse(embedded ?? "null")).toStrictEqual(served.body)
    expect(embedded).not.toContain("HttpApiDecodeError")
  })
})

describe("GET /docs security headers", () => {
  it("has a Content-Security-Policy that runs only the page's own scripts (it shares the dashboard's origin)", async () => {
    // A review found /docs served without one, on the origin holding the signed-in key.
    const reply = await call(server.url, "GET", "/docs", { key: null })
    const csp = reply.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain("'unsafe-eval'")
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? ""
    expect(scriptSrc).not.toContain("unsafe-inline")
    const inline = [...reply.text.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)]
    expect(inline.length).toBeGreaterThanOrEqual(2)
    for (const [, script] of inline) {
      const hash = createHash("sha256")
        .update(script ?? "")
        .digest("base64")
      expect(scriptSrc).toContain(`'sha256-${hash}'`)
    }
    expect(reply.headers.get("x-content-type-options")).toBe("nosniff")
    expect(reply.headers.get("referrer-policy")).toBe("no-referrer")
  })
})

describe("the edge around the docs", () => {
  it("does not rate-limit, authenticate or version-check the docs", async () => {
    for (let i = 0; i < 5; i++) {
      const docs = await call(server.url, "GET", "/docs", {
        key: "sk_dev_service_unknown",
        headers: { "levy-version": "1999-01" }
      })
      expect(docs.status).toBe(200)
      const spec = await call(server.url, "GET", "/v1/openapi.json", { key: null })
      expect(spec.status).toBe(200)
      expect(spec.headers.get("x-ratelimit-limit")).toBeNull()
    }
    // The keyless bucket (limit 2) is untouched: a keyless API call is a 401, not a 429.
    const keyless = await call(server.url, "GET", "/v1/regions", { key: null })
    expect(keyless.status).toBe(401)
  })

  it("still answers 404 route_not_found and 405 in the spec shape", async () => {
    const near = await call(server.url, "GET", "/v1/openapi.yaml")
    expect(near.status).toBe(404)
    expectSpecError(near.body, "route_not_found")
    const unknown = await call(server.url, "GET", "/docs/nope")
    expect(unknown.status).toBe(404)
    expectSpecError(unknown.body, "route_not_found")
    const wrongMethod = await call(server.url, "POST", "/v1/openapi.json", { body: {} })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get("allow")).toBe("GET")
    expectSpecError(wrongMethod.body, "method_not_allowed")
    const docsDelete = await call(server.url, "DELETE", "/docs")
    expect(docsDelete.status).toBe(405)
    expectSpecError(docsDelete.body, "method_not_allowed")
  })
})
