/**
 * The contract as the edge serves it (http/Contract.ts): the routing table taken from the
 * HttpApi definition, and the start-up refusal of a contract that asks for what the edge
 * does not do.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { describe, expect, it } from "@effect/vitest"
import { Authorization } from "@levy/api"
import { Schema } from "effect"
import * as Contract from "../src/http/Contract.js"
import { ServerApi } from "../src/http/ServerApi.js"

const table = Contract.router(Contract.endpointsOf(ServerApi))
const methods = (path: string) => table.methods(table.at(path))
const nameOf = (method: string, path: string) => {
  const match = table.find(table.at(path), method)
  return match === undefined ? undefined : `${match.endpoint.group}.${match.endpoint.name}`
}

describe("the routing table", () => {
  it("tells the methods of each served path, in the contract's order", () => {
    expect(methods("/v1/regions")).toStrictEqual(["GET"])
    // GET matches /v1/regions/:code (a region named "check-compliance"), as the router did.
    expect(methods("/v1/regions/check-compliance")).toStrictEqual(["GET", "POST"])
    expect(methods("/v1/charges")).toStrictEqual(["POST", "GET"])
    expect([...methods("/v1/webhook-endpoints/we_1")].sort()).toStrictEqual([
      "DELETE",
      "GET",
      "POST"
    ])
    expect(methods("/v1/charges/ch_1/refunds")).toStrictEqual([])
  })

  it("finds the endpoint of a method and path, a trailing slash allowed", () => {
    expect(nameOf("POST", "/v1/charges")).toBe("charges.create")
    expect(nameOf("GET", "/v1/charges/")).toBe("charges.list")
    expect(nameOf("POST", "/v1/regions/check-compliance")).toBe("regions.checkCompliance")
    expect(nameOf("GET", "/v1/regions/check-compliance")).toBe("regions.retrieve")
    expect(nameOf("POST", "/v1/fee-configs/pending/approve")).toBe("feeConfigs.approvePending")
    expect(nameOf("PUT", "/v1/charges")).toBeUndefined()
  })

  it("answers HEAD as GET", () => {
    expect(nameOf("HEAD", "/v1/charges/ch_1")).toBe("charges.retrieve")
    expect(nameOf("HEAD", "/v1/regions/check-compliance")).toBe("regions.retrieve")
  })

  it("percent-decodes path parameters; a malformed one matches no route", () => {
    expect(table.find(table.at("/v1/charges/ch%5F1"), "GET")?.params).toStrictEqual({ id: "ch_1" })
    expect(table.find(table.at("/v1/charges/%zz"), "GET")).toBeUndefined()
    expect(methods("/v1/charges/%zz")).toStrictEqual([])
  })
})

class Extra extends HttpApiMiddleware.Tag<Extra>()("Extra") {}

const apiWith = (endpoint: HttpApiEndpoint.HttpApiEndpoint.Any, extra = false) => {
  const group = HttpApiGroup.make("things").add(
    endpoint as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  )
  const api = HttpApi.make("test").add(group).middleware(Authorization.Authorization)
  return extra ? api.middleware(Extra) : api
}

const plain = HttpApiEndpoint.post("create", "/things").addSuccess(
  Schema.Struct({ id: Schema.String })
)

describe("a contract the edge does not serve", () => {
  it("is served when it asks for nothing more than the API does", () => {
    expect(Contract.endpointsOf(apiWith(plain)).map((e) => e.name)).toStrictEqual(["create"])
  })

  it("stops the server at start-up, naming what it lacks", () => {
    expect(() => Contract.endpointsOf(apiWith(plain, true))).toThrow(
      /a middleware other than Authorization/
    )
    expect(() =>
      Contract.endpointsOf(
        apiWith(
          HttpApiEndpoint.get("list", "/things")
            .setPayload(Schema.Struct({ q: Schema.String }))
            .addSuccess(Schema.String)
        )
      )
    ).toThrow(/things\.list: a payload on GET/)
    expect(() =>
      Contract.endpointsOf(
        apiWith(HttpApiEndpoint.post("text", "/things").addSuccess(HttpApiSchema.Text()))
      )
    ).toThrow(/things\.text: a Text success/)
    expect(() => Contract.endpointsOf(apiWith(HttpApiEndpoint.post("nothing", "/things")))).toThrow(
      /things\.nothing: an empty success/
    )
  })
})
