/**
 * The HttpApi definition: the OpenAPI document derived from it lists every endpoint of the
 * contract with its error responses, and never mentions HttpApiDecodeError.
 */
import * as OpenApi from "@effect/platform/OpenApi"
import { describe, expect, it } from "@effect/vitest"
import { allowsPublishableKey, LevyApi, publishableOperations } from "../src/LevyApi.js"

const spec = OpenApi.fromApi(LevyApi)

/** The parts of the document the tests read. */
interface JsonSchema {
  readonly $ref?: string
  readonly required?: ReadonlyArray<string>
  readonly properties?: Record<string, JsonSchema>
  readonly additionalProperties?: unknown
  readonly enum?: ReadonlyArray<unknown>
  readonly description?: string
}
interface Operation {
  readonly responses: Record<
    string,
    {
      readonly description: string
      readonly content?: Record<string, { readonly schema: JsonSchema }>
    }
  >
  readonly parameters: ReadonlyArray<{ readonly name: string; readonly in: string }>
  readonly requestBody?: unknown
}
const component = (name: string): JsonSchema => spec.components.schemas[name] as JsonSchema
const text = JSON.stringify(spec)

/** Every endpoint the contract promises, as `METHOD /path`. */
const expected = [
  "POST /v1/estimates",
  "POST /v1/charges",
  "GET /v1/charges/{id}",
  "POST /v1/charges/{id}",
  "GET /v1/charges",
  "POST /v1/refunds",
  "GET /v1/refunds/{id}",
  "GET /v1/refunds",
  "GET /v1/disputes/{id}",
  "GET /v1/disputes",
  "GET /v1/fee-configs",
  "POST /v1/fee-configs",
  "POST /v1/fee-configs/pending/approve",
  "POST /v1/fee-configs/pending/cancel",
  "GET /v1/regions",
  "GET /v1/regions/{code}",
  "POST /v1/regions/check-compliance",
  "GET /v1/rulesets",
  "GET /v1/rulesets/{version}",
  "GET /v1/events",
  "GET /v1/events/{id}",
  "POST /v1/events/{id}/resend",
  "POST /v1/webhook-endpoints",
  "GET /v1/webhook-endpoints",
  "GET /v1/webhook-endpoints/{id}",
  "POST /v1/webhook-endpoints/{id}",
  "DELETE /v1/webhook-endpoints/{id}",
  "POST /v1/webhook-endpoints/{id}/roll-secret",
  "GET /v1/webhook-endpoints/{id}/deliveries",
  "GET /v1/keys",
  "POST /v1/keys/{id}/revoke",
  "POST /v1/processor-config",
  "GET /v1/processor-config",
  "DELETE /v1/processor-config",
  "GET /v1/processor-config/pending",
  "POST /v1/processor-config/pending/approve",
  "POST /v1/processor-config/pending/cancel"
]

const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
  Object.entries(methods as Record<string, Operation>).map(([method, op]) => ({
    key: `${method.toUpperCase()} ${path}`,
    op
  }))
)
const operation = (key: string) => {
  const found = operations.find((o) => o.key === key)
  if (found === undefined) throw new Error(`no operation ${key}`)
  return found.op
}
const schemaRef = (key: string, status: string): string | undefined =>
  operation(key).responses[status]?.content?.["application/json"]?.schema?.$ref

describe("OpenApi.fromApi(LevyApi)", () => {
  it("is an OpenAPI 3.1 document", () => {
    expect(spec.openapi).toBe("3.1.0")
    expect(spec.info.title).toBe("Levy API")
  })

  it("lists exactly the contract's paths and methods", () => {
    expect(operations.map((o) => o.key).sort()).toStrictEqual([...expected].sort())
  })

  it("contains no HttpApiDecodeError, nor the components only it used", () => {
    expect(text).not.toContain("HttpApiDecodeError")
    expect(Object.keys(spec.components.schemas)).not.toContain("Issue")
  })

  it("answers 400 with InvalidRequestError everywhere, described as such", () => {
    for (const { key } of operations) {
      expect(schemaRef(key, "400"), key).toBe("#/components/schemas/InvalidRequestError")
      expect(operation(key).responses["400"]?.description).toContain("Invalid parameters")
    }
  })

  it("documents 401, 403, 429, 500 and 503 on every operation", () => {
    const common: Record<string, string> = {
      "401": "AuthenticationError",
      "403": "PermissionError",
      "429": "RateLimitError",
      "500": "ApiError",
      "503": "ServiceUnavailableError"
    }
    for (const { key } of operations) {
      for (const [status, name] of Object.entries(common)) {
        expect(schemaRef(key, status), `${key} ${status}`).toBe(`#/components/schemas/${name}`)
      }
    }
  })

  it("documents 404 on every operation on one resource, 409 on every POST, 402 on charge creation", () => {
    for (const { key } of operations) {
      if (key.includes("{"))
        expect(schemaRef(key, "404"), key).toBe("#/components/schemas/NotFoundError")
      if (key.startsWith("POST")) {
        expect(schemaRef(key, "409"), key).toBe("#/components/schemas/IdempotencyError")
      }
    }
    expect(schemaRef("POST /v1/charges", "402")).toBe("#/components/schemas/CardError")
    expect(operation("POST /v1/estimates").responses["402"]).toBeUndefined()
    expect(schemaRef("POST /v1/refunds", "404")).toBe("#/components/schemas/NotFoundError")
    expect(schemaRef("POST /v1/fee-configs/pending/approve", "404")).toBe(
      "#/components/schemas/NotFoundError"
    )
  })

  it("documents 413 on every POST with a body", () => {
    for (const { key, op } of operations) {
      if (op.requestBody !== undefined) {
        expect(schemaRef(key, "413"), key).toBe("#/components/schemas/PayloadTooLargeError")
      }
    }
  })

  it("every body is documented as JSON and as a form, with the same schema", () => {
    let bodies = 0
    for (const { key, op } of operations) {
      const content = (op.requestBody as { content?: Record<string, { schema: unknown }> })?.content
      if (content === undefined) continue
      bodies++
      expect(content["application/x-www-form-urlencoded"]?.schema, key).toStrictEqual(
        content["application/json"]?.schema
      )
    }
    expect(bodies).toBeGreaterThan(10)
  })

  it("error components have the specification's body shape", () => {
    const body = component("InvalidRequestError")
    const error = body.properties?.error
    expect(body.required).toStrictEqual(["error"])
    expect(error?.required).toStrictEqual(["type", "code", "message"])
    expect(Object.keys(error?.properties ?? {})).toStrictEqual(["type", "code", "message", "param"])
    expect(error?.properties?.type?.enum).toStrictEqual(["invalid_request_error"])
    const card = component("CardError")
    expect(Object.keys(card.properties?.error?.properties ?? {})).toContain("declineCode")
  })

  it("answers 200 with the resource on success", () => {
    expect(schemaRef("POST /v1/estimates", "200")).toBe("#/components/schemas/Estimate")
    expect(schemaRef("GET /v1/charges/{id}", "200")).toBe("#/components/schemas/Charge")
    expect(schemaRef("GET /v1/charges", "200")).toBe("#/components/schemas/ChargeList")
    expect(schemaRef("DELETE /v1/webhook-endpoints/{id}", "200")).toBe(
      "#/components/schemas/DeletedWebhookEndpoint"
    )
  })

  it("uses bearer authentication for the whole API", () => {
    expect(spec.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" })
    expect(spec.security).toStrictEqual([{ bearer: [] }])
  })

  it("takes Idempotency-Key on every POST and Levy-Version on every operation", () => {
    for (const { key, op } of operations) {
      const names = op.parameters.filter((p) => p.in === "header").map((p) => p.name.toLowerCase())
      expect(names, key).toContain("levy-version")
      if (key.startsWith("POST")) expect(names, key).toContain("idempotency-key")
    }
  })

  it("documents list parameters: limit, cursors and created[...] on the charges list", () => {
    const names = operation("GET /v1/charges").parameters.map((p) => p.name)
    for (const name of [
      "limit",
      "starting_after",
      "ending_before",
      "customer",
      "created[gte]",
      "created[lte]"
    ]) {
      expect(names).toContain(name)
    }
    expect(operation("GET /v1/events").parameters.map((p) => p.name)).toContain("type")
  })

  it("request bodies refuse additional properties", () => {
    expect(component("ChargeCreate").additionalProperties).toBe(false)
    expect(component("ChargeCreate").required).toStrictEqual(["amount", "currency"])
  })
})

describe("publishable keys (docs/design.md §5)", () => {
  it("may call exactly the estimate, region lookup and compliance check", () => {
    expect([...publishableOperations()].sort()).toStrictEqual(
      ["GET /v1/regions/:code", "POST /v1/estimates", "POST /v1/regions/check-compliance"].sort()
    )
  })

  it("allowsPublishableKey matches requests to those three only", () => {
    expect(allowsPublishableKey("POST", "/v1/estimates")).toBe(true)
    expect(allowsPublishableKey("post", "/v1/estimates")).toBe(true)
    expect(allowsPublishableKey("GET", "/v1/regions/US-NY")).toBe(true)
    expect(allowsPublishableKey("POST", "/v1/regions/check-compliance")).toBe(true)
    expect(allowsPublishableKey("GET", "/v1/regions")).toBe(false)
    expect(allowsPublishableKey("GET", "/v1/regions/US/extra")).toBe(false)
    expect(allowsPublishableKey("POST", "/v1/charges")).toBe(false)
    expect(allowsPublishableKey("GET", "/v1/estimates")).toBe(false)
    expect(allowsPublishableKey("GET", "/v1/fee-configs")).toBe(false)
  })
})
