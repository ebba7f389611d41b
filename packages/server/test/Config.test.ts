/** The pure pieces of configuration: Redis URLs, the static key table. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as KeyResolver from "../src/access/KeyResolver.js"
import { redisOptions } from "../src/http/RateLimitStore.js"

describe("redisOptions", () => {
  it("reads host, port, password and db from a URL", () => {
    expect(redisOptions("redis://:s3cr%40t@cache.local:6380/2", "p:")).toMatchObject({
      host: "cache.local",
      port: 6380,
      password: "s3cr@t",
      db: 2,
      prefix: "p:"
    })
  })

  it("defaults the port to 6379 and sets no db or credentials", () => {
    const options = redisOptions("redis://127.0.0.1")
    expect(options).toMatchObject({ host: "127.0.0.1", port: 6379 })
    expect(options).not.toHaveProperty("db")
    expect(options).not.toHaveProperty("password")
  })
})

describe("KeyResolver.memory", () => {
  it.effect("resolves a known secret with kind and mode from its prefix; unknown → none", () =>
    Effect.gen(function* () {
      const resolver = KeyResolver.memory([
        { secret: "pk_prod_service_x1", accountId: "acct_9", keyId: "key_9" }
      ])
      expect(yield* resolver.resolve("pk_prod_service_x1")).toStrictEqual(
        Option.some({ accountId: "acct_9", keyId: "key_9", kind: "publishable", mode: "live" })
      )
      expect(Option.isNone(yield* resolver.resolve("pk_prod_service_x2"))).toBe(true)
    })
  )

  it("refuses a table entry without one of the four prefixes", () => {
    expect(() => KeyResolver.memory([{ secret: "sk_test_x", accountId: "a", keyId: "k" }])).toThrow(
      /prefixes/
    )
  })
})
