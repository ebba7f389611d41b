/**
 * The reference's examples are real: each request body decodes with its request schema (so a
 * sample copied from /docs is accepted), every operation takes the bearer key, and every body,
 * path id and Idempotency-Key in the document has an example.
 */
import * as OpenApi from "@effect/platform/OpenApi"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import {
  ChargeCreate,
  ChargeUpdate,
  CheckComplianceRequest,
  EstimateRequest,
  EventResend,
  FeeConfigApprove,
  FeeConfigUpdate,
  LevyApi,
  OpenApiExamples,
  ProcessorConfigApprove,
  ProcessorConfigCreate,
  RefundCreate,
  WebhookEndpointCreate,
  WebhookEndpointUpdate
} from "../src/index.js"

const schemas: Record<string, Schema.Schema.AnyNoContext> = {
  EstimateRequest: EstimateRequest.EstimateRequest,
  ChargeCreate: ChargeCreate.ChargeCreate,
  ChargeUpdate: ChargeUpdate.ChargeUpdate,
  RefundCreate: RefundCreate.RefundCreate,
  FeeConfigUpdate: FeeConfigUpdate.FeeConfigUpdate,
  CheckComplianceRequest: CheckComplianceRequest.CheckComplianceRequest,
  EventResend: EventResend.EventResend,
  FeeConfigApprove: FeeConfigApprove.FeeConfigApprove,
  WebhookEndpointCreate: WebhookEndpointCreate.WebhookEndpointCreate,
  WebhookEndpointUpdate: WebhookEndpointUpdate.WebhookEndpointUpdate,
  ProcessorConfigCreate: ProcessorConfigCreate.ProcessorConfigCreate,
  ProcessorConfigApprove: ProcessorConfigApprove.ProcessorConfigApprove
}

// biome-ignore lint/suspicious/noExplicitAny: a JSON document walked by key, checked by the assertions
type Json = Record<string, any>
const document = OpenApi.fromApi(LevyApi.LevyApi) as unknown as Json
const operations = Object.entries(document.paths as Json).flatMap(([path, ops]) =>
  Object.entries(ops as Json).map(([method, op]) => ({ path, method, op: op as Json }))
)

describe("the OpenAPI document's examples", () => {
  it("every example body decodes with its request schema", () => {
    for (const [name, example] of Object.entries(OpenApiExamples.bodies)) {
      const schema = schemas[name]
      expect(schema, name).toBeDefined()
      expect(Schema.decodeUnknownEither(schema!)(example)._tag, name).toBe("Right")
    }
  })

  it("every operation takes the bearer key (no `security: []` that would send none)", () => {
    expect(document.components.securitySchemes.bearer).toMatchObject({
      type: "http",
      scheme: "bearer"
    })
    expect(document.security).toStrictEqual([{ bearer: [] }])
    for (const { path, method, op } of operations) {
      expect(op.security, `${method} ${path}`).toBeUndefined()
    }
  })

  it("every request body, path id and Idempotency-Key has an example", () => {
    for (const { path, method, op } of operations) {
      const at = `${method} ${path}`
      const body = op.requestBody?.content?.["application/json"]
      if (body !== undefined) expect(body.example, at).toBeDefined()
      for (const parameter of op.parameters as Array<Json>) {
        if (parameter.in === "path" || /^idempotency-key$/i.test(parameter.name)) {
          expect(parameter.example, `${at} ${parameter.name}`).toEqual(expect.any(String))
        }
      }
    }
    const estimate = document.paths["/v1/estimates"].post.requestBody.content["application/json"]
    expect(estimate.example).toMatchObject({ amount: 10000, currency: "usd" })
  })
})
