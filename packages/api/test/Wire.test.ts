/**
 * The contract end to end, in memory: a stub server built with HttpApiBuilder from the
 * contract's groups answers with the specification's error bodies and statuses, and the
 * client derived with HttpApiClient decodes them back into the error classes.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpServer from "@effect/platform/HttpServer"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Estimate as CoreEstimate, FeeSchedule, Rate, Ruleset } from "@levy/core"
import { Effect, Either, Layer, Redacted } from "effect"
import * as ApiError from "../src/ApiError.js"
import { Authorization } from "../src/Authorization.js"
import * as CurrentKey from "../src/CurrentKey.js"
import * as Estimate from "../src/Estimate.js"
import { ChargesGroup, EstimatesGroup } from "../src/LevyApi.js"
import * as List from "../src/List.js"

const TestApi = HttpApi.make("test")
  .add(EstimatesGroup)
  .add(ChargesGroup)
  .addError(ApiError.RateLimitErrorWire)
  .addError(ApiError.ApiErrorWire)
  .addError(ApiError.ServiceUnavailableErrorWire)
  .middleware(Authorization)

const AuthorizationStub = Layer.succeed(Authorization, {
  bearer: (token) => {
    const found = CurrentKey.classify(Redacted.value(token))
    return found === undefined
      ? Effect.fail(new ApiError.AuthenticationError({ message: "Invalid API key provided." }))
      : Effect.succeed({ accountId: "acct_1", keyId: "key_1", ...found })
  }
})

const EstimatesStub = HttpApiBuilder.group(TestApi, "estimates", (handlers) =>
  handlers.handle("create", ({ payload }) =>
    Effect.gen(function* () {
      const key = yield* CurrentKey.CurrentKey
      if (payload.amount === 4290) {
        return yield* new ApiError.RateLimitError({
          message: `Too many requests for ${key.mode} keys.`
        })
      }
      // The wire's costOfAcceptance is percent; the engine takes it as a rate.
      const { costOfAcceptance, ...request } = payload
      const coa =
        costOfAcceptance === undefined ? undefined : Rate.percentFromNumber(costOfAcceptance)
      return yield* CoreEstimate.estimate(FeeSchedule.DEFAULT, Ruleset.DEFAULT, {
        ...request,
        costOfAcceptance: coa
      }).pipe(Either.map(Estimate.fromEngine), Either.mapLeft(ApiError.fromFeeError))
    })
  )
)

const ChargesStub = HttpApiBuilder.group(TestApi, "charges", (handlers) =>
  handlers
    .handle("create", () =>
      Effect.fail(
        new ApiError.CardError({
          message: "Your card was declined.",
          declineCode: "generic_decline",
          charge: "ch_failed1"
        })
      )
    )
    .handle("retrieve", ({ path }) =>
      Effect.fail(
        new ApiError.NotFoundError({ message: `No such charge: '${path.id}'`, param: "id" })
      )
    )
    .handle("update", ({ path }) =>
      Effect.fail(
        new ApiError.NotFoundError({ message: `No such charge: '${path.id}'`, param: "id" })
      )
    )
    .handle("list", () => Effect.succeed(List.make([], false, "/v1/charges")))
)

const { handler, dispose } = HttpApiBuilder.toWebHandler(
  Layer.mergeAll(
    HttpApiBuilder.api(TestApi).pipe(
      Layer.provide([EstimatesStub, ChargesStub, AuthorizationStub])
    ),
    HttpServer.layerContext
  )
)
afterAll(() => dispose())

const SECRET = "sk_dev_service_abc123"

/** A JSON response body as the tests read it. */
interface ResponseBody {
  readonly error: Record<string, unknown> & { readonly message: string }
  readonly issues: ReadonlyArray<ApiError.Issue>
  readonly [key: string]: unknown
}

const call = async (method: string, path: string, body?: unknown, key = SECRET) => {
  const response = await handler(
    new Request(`http://levy.test${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  )
  return { status: response.status, body: (await response.json()) as ResponseBody }
}

/** An HttpClient that hands requests to the in-memory server. */
const InMemoryClient = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make((request, url) =>
    Effect.promise(async () => {
      const body = request.body._tag === "Uint8Array" ? request.body.body : undefined
      const response = await handler(
        new Request(url.toString(), {
          method: request.method,
          headers: request.headers as Record<string, string>,
          ...(body === undefined ? {} : { body })
        })
      )
      return HttpClientResponse.fromWeb(request, response)
    })
  )
)

const client = HttpApiClient.make(TestApi, {
  baseUrl: "http://levy.test",
  transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(SECRET))
})

describe("server side: statuses and bodies", () => {
  it("an estimate answers 200 with the engine's numbers", async () => {
    const { status, body } = await call("POST", "/v1/estimates", { amount: 10000, currency: "USD" })
    expect(status).toBe(200)
    expect(body).toMatchObject({
      object: "estimate",
      convenienceFee: 320,
      totalAmount: 10320,
      currency: "USD"
    })
  })

  it("the engine's refusal answers 400 with exactly the specification's body", async () => {
    const { status, body } = await call("POST", "/v1/estimates", { amount: 10, currency: "usd" })
    expect(status).toBe(400)
    expect(Object.keys(body)).toStrictEqual(["error"])
    expect(body.error).toMatchObject({
      type: "invalid_request_error",
      code: "amount_too_small",
      param: "amount"
    })
    expect(body.error.message).toContain("50 cents")
  })

  it("a declined card answers 402 card_error with the decline code and the failed charge", async () => {
    const { status, body } = await call("POST", "/v1/charges", { amount: 10000, currency: "usd" })
    expect(status).toBe(402)
    expect(body).toStrictEqual({
      error: {
        type: "card_error",
        code: "card_declined",
        message: "Your card was declined.",
        declineCode: "generic_decline",
        charge: "ch_failed1"
      }
    })
  })

  it("an unknown charge answers 404 resource_missing", async () => {
    const { status, body } = await call("GET", "/v1/charges/ch_nope")
    expect(status).toBe(404)
    expect(body.error).toStrictEqual({
      type: "invalid_request_error",
      code: "resource_missing",
      message: "No such charge: 'ch_nope'",
      param: "id"
    })
  })

  it("a bad key answers 401 authentication_error from the middleware", async () => {
    const { status, body } = await call("GET", "/v1/charges", undefined, "sk_test_wrong")
    expect(status).toBe(401)
    expect(body.error).toMatchObject({ type: "authentication_error", code: "invalid_api_key" })
  })

  it("an API-level error (429) is written with its status and body", async () => {
    const { status, body } = await call("POST", "/v1/estimates", { amount: 4290, currency: "usd" })
    expect(status).toBe(429)
    expect(body.error).toStrictEqual({
      type: "rate_limit_error",
      code: "rate_limit_exceeded",
      message: "Too many requests for test keys."
    })
  })

  it("an unknown field is refused before the handler; its issues name the field for the server's mapping", async () => {
    // HttpApi 0.97 answers decode failures with its own HttpApiDecodeError body; the server
    // maps it (stack-notes). The issues it carries are what ApiError.fromIssues reads.
    const { status, body } = await call("POST", "/v1/estimates", {
      amount: 10000,
      currency: "usd",
      colour: "red"
    })
    expect(status).toBe(400)
    const mapped = ApiError.fromIssues(body.issues)
    expect([mapped.code, mapped.param]).toStrictEqual(["parameter_unknown", "colour"])
    const missing = await call("POST", "/v1/estimates", { currency: "usd" })
    expect(ApiError.fromIssues(missing.body.issues).param).toBe("amount")
  })
})

describe("client side: errors decode into the classes", () => {
  const run = <A, E>(effect: Effect.Effect<A, E, HttpClient.HttpClient>) =>
    Effect.runPromise(Effect.either(effect.pipe(Effect.provide(InMemoryClient))))

  it("a 400 becomes an InvalidRequestError with code and param", async () => {
    const result = await run(
      Effect.flatMap(client, (c) =>
        c.estimates.create({ payload: { amount: 10, currency: "usd" }, headers: {} })
      )
    )
    const error = Either.getLeft(result).pipe((o) => (o._tag === "Some" ? o.value : undefined))
    expect(error).toBeInstanceOf(ApiError.InvalidRequestError)
    expect(error).toMatchObject({ code: "amount_too_small", param: "amount" })
  })

  it("a 402 becomes a CardError carrying declineCode", async () => {
    const result = await run(
      Effect.flatMap(client, (c) =>
        c.charges.create({ payload: { amount: 10000, currency: "usd" }, headers: {} })
      )
    )
    const error = Either.isLeft(result) ? result.left : undefined
    expect(error).toBeInstanceOf(ApiError.CardError)
    expect(error).toMatchObject({
      declineCode: "generic_decline",
      charge: "ch_failed1",
      status: 402
    })
  })

  it("a 404 becomes a NotFoundError; a success decodes into the model", async () => {
    const missing = await run(
      Effect.flatMap(client, (c) => c.charges.retrieve({ path: { id: "ch_x" } }))
    )
    expect(Either.isLeft(missing) && missing.left).toBeInstanceOf(ApiError.NotFoundError)
    const list = await run(
      Effect.flatMap(client, (c) => c.charges.list({ urlParams: { limit: 5 } }))
    )
    expect(list).toStrictEqual(
      Either.right({ object: "list", data: [], has_more: false, url: "/v1/charges" })
    )
  })
})
