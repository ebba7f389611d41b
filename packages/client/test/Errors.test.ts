/**
 * Every error class of the facade, each from a real response (or a real network failure):
 * the class, `type`, `code`, `statusCode`, `param`/`declineCode` where they apply, and the
 * response's `request-id`.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  APIError,
  AuthenticationError,
  CardError,
  IdempotencyError,
  InvalidRequestError,
  Levy,
  LevyError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError
} from "../src/index.js"
import {
  fixed,
  memoryStore,
  PUBLISHABLE,
  refusedUrl,
  SECRET,
  silent,
  start,
  startWithStore,
  WINDOW
} from "./support.js"

/** The rejection of `promise`, which must reject. */
const rejection = async (promise: Promise<unknown>): Promise<LevyError> => {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(LevyError)
    return error as LevyError
  }
  throw new Error("expected a rejection")
}

const REQUEST_ID = /^req_/

describe("errors from the real server", () => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  let levy: Levy
  beforeAll(async () => {
    server = await startWithStore(memoryStore())
    levy = new Levy(SECRET, { baseUrl: server.url })
  })
  afterAll(() => server.close())

  it("401: AuthenticationError", async () => {
    const e = await rejection(
      new Levy("sk_dev_service_nosuchkey", { baseUrl: server.url }).charges.list()
    )
    expect(e).toBeInstanceOf(AuthenticationError)
    expect(e).toMatchObject({ type: "authentication_error", statusCode: 401 })
    expect(e.requestId).toMatch(REQUEST_ID)
  })

  it("400 from the server: InvalidRequestError with param (amount below the minimum)", async () => {
    const e = await rejection(levy.charges.create({ amount: 10, currency: "usd" }))
    expect(e).toBeInstanceOf(InvalidRequestError)
    expect(e).toMatchObject({
      type: "invalid_request_error",
      code: "amount_too_small",
      param: "amount",
      statusCode: 400
    })
    expect(e.requestId).toMatch(REQUEST_ID)
  })

  it("400 unknown_region: an estimate is refused as the charge is", async () => {
    const body = { amount: 5000, currency: "usd", region: "US-ZZ" }
    const charge = await rejection(levy.charges.create(body))
    const estimate = await rejection(levy.estimates.create(body))
    expect(estimate).toBeInstanceOf(InvalidRequestError)
    expect(estimate).toMatchObject({ code: "unknown_region", param: "region", statusCode: 400 })
    expect(estimate.message).toBe(charge.message)
    expect(charge).toMatchObject({ code: "unknown_region", param: "region" })
  })

  it("400 before sending: the schema names the field; nothing reached the server", async () => {
    const before = (await levy.charges.list({ limit: 100 })).data.length
    const e = await rejection(levy.charges.create({ amount: 5000, currency: "usd", customer: "" }))
    expect(e).toBeInstanceOf(InvalidRequestError)
    expect(e).toMatchObject({ param: "customer", statusCode: undefined, requestId: undefined })
    expect((await levy.charges.list({ limit: 100 })).data.length).toBe(before)
  })

  it("402: CardError with declineCode and the failed charge", async () => {
    const e = await rejection(
      levy.charges.create({ amount: 5000, currency: "usd", source: "tok_chargeDeclined" })
    )
    expect(e).toBeInstanceOf(CardError)
    expect(e).toMatchObject({ type: "card_error", code: "card_declined", statusCode: 402 })
    const card = e as CardError
    expect(card.declineCode).toBeTypeOf("string")
    expect((await levy.charges.retrieve(card.charge ?? "")).status).toBe("failed")
    expect(e.requestId).toMatch(REQUEST_ID)
  })

  it("403: PermissionError (a publishable key listing charges)", async () => {
    const e = await rejection(new Levy(PUBLISHABLE, { baseUrl: server.url }).charges.list())
    expect(e).toBeInstanceOf(PermissionError)
    expect(e).toMatchObject({ statusCode: 403, code: "permission_denied" })
  })

  it("404: NotFoundError", async () => {
    const e = await rejection(levy.charges.retrieve("ch_doesnotexist"))
    expect(e).toBeInstanceOf(NotFoundError)
    expect(e).toMatchObject({
      type: "invalid_request_error",
      code: "resource_missing",
      statusCode: 404
    })
    expect(e.requestId).toMatch(REQUEST_ID)
  })

  it("400 idempotency_key_reused: the same key with another body", async () => {
    await levy.estimates.create({ amount: 1000, currency: "usd" }, { idempotencyKey: "reuse-me" })
    const e = await rejection(
      levy.estimates.create({ amount: 2000, currency: "usd" }, { idempotencyKey: "reuse-me" })
    )
    expect(e).toBeInstanceOf(InvalidRequestError)
    expect(e).toMatchObject({ code: "idempotency_key_reused", statusCode: 400 })
  })
})

describe("429: RateLimitError once the retries are spent", () => {
  it("maxRetries 0 gives the 429 at once", async () => {
    const server = await start({ edge: { test: 1, window: WINDOW } })
    try {
      const levy = new Levy(SECRET, { baseUrl: server.url, maxRetries: 0 })
      await levy.feeConfigs.retrieve()
      const e = await rejection(levy.feeConfigs.retrieve())
      expect(e).toBeInstanceOf(RateLimitError)
      expect(e).toMatchObject({ type: "rate_limit_error", statusCode: 429 })
      expect(e.requestId).toMatch(REQUEST_ID)
    } finally {
      await server.close()
    }
  })

  it("a Retry-After beyond a minute is not waited for", async () => {
    const server = await start({ edge: { test: 1, window: WINDOW } })
    try {
      const levy = new Levy(SECRET, { baseUrl: server.url, maxRetries: 2 })
      await levy.feeConfigs.retrieve()
      expect(await rejection(levy.feeConfigs.retrieve())).toBeInstanceOf(RateLimitError)
    } finally {
      await server.close()
    }
  })
})

describe("statuses the real server will not give on demand", () => {
  const cases = [
    [409, "invalid_request_error", "idempotency_key_in_use", IdempotencyError],
    [500, "api_error", "internal_error", APIError],
    [503, "api_error", "service_unavailable", APIError]
  ] as const
  it.each(cases)("%i: retried maxRetries times, then %s", async (status, type, code, Class) => {
    const server = await fixed(status, { type, code, message: "no" })
    try {
      const levy = new Levy(SECRET, { baseUrl: server.url, maxRetries: 1 })
      const e = await rejection(levy.charges.create({ amount: 5000, currency: "usd" }))
      expect(e).toBeInstanceOf(Class)
      expect(e).toMatchObject({ type, code, statusCode: status, requestId: "req_fixed" })
      expect(server.requests).toHaveLength(2)
      const keys = server.requests.map((r) => r.headers["idempotency-key"])
      expect(keys[0]).toMatch(/^idk_/)
      expect(keys[1]).toBe(keys[0])
    } finally {
      await server.close()
    }
  })

  it("a 400 is not retried", async () => {
    const server = await fixed(400, { type: "invalid_request_error", code: "x", message: "no" })
    try {
      const levy = new Levy(SECRET, { baseUrl: server.url, maxRetries: 2 })
      expect(await rejection(levy.charges.list())).toBeInstanceOf(InvalidRequestError)
      expect(server.requests).toHaveLength(1)
    } finally {
      await server.close()
    }
  })
})

describe("NetworkError", () => {
  it("a server that never answers: the timeout aborts each attempt", async () => {
    const server = await silent()
    try {
      const levy = new Levy(SECRET, { baseUrl: server.url, timeout: 200, maxRetries: 1 })
      const e = await rejection(levy.estimates.create({ amount: 1000, currency: "usd" }))
      expect(e).toBeInstanceOf(NetworkError)
      expect(e).toMatchObject({ type: "network_error", code: "timeout", statusCode: undefined })
      expect(server.requests).toHaveLength(2)
      expect(server.requests[1]?.headers["idempotency-key"]).toBe(
        server.requests[0]?.headers["idempotency-key"]
      )
    } finally {
      await server.close()
    }
  })

  it("a refused connection", async () => {
    const levy = new Levy(SECRET, { baseUrl: await refusedUrl(), maxRetries: 0 })
    const e = await rejection(levy.regions.retrieve("US-CA"))
    expect(e).toBeInstanceOf(NetworkError)
    expect(e).toMatchObject({ type: "network_error", code: "connection_error" })
  })
})
