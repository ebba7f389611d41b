/**
 * The key that seals webhook secrets: a process whose key differs from the
 * one that sealed the secrets already in a PostgreSQL database refuses to start, saying what
 * to do (it used to start and fail every delivery); and the key file is created atomically,
 * so processes starting at once on one host share one key.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Scope } from "effect"
import { AccountRepository } from "../src/AccountRepository.js"
import { Ids } from "../src/Ids.js"
import { SecretBox } from "../src/SecretBox.js"
import * as Storage from "../src/Storage.js"
import { throwawayDatabase } from "../src/Testing.js"
import { WebhookEndpointRepository, WRONG_KEY } from "../src/WebhookEndpointRepository.js"

const key = (byte: number) => new Uint8Array(32).fill(byte)

describe("the secret key on PostgreSQL", () => {
  it.scoped("a process with another key refuses to start; one with the same key starts", () =>
    Effect.gen(function* () {
      const { url } = yield* throwawayDatabase("levy_secretkey")
      const store = (k: Uint8Array) =>
        Storage.layerPostgres({ url, maxConnections: 2 }).pipe(
          Layer.provide(Layer.merge(SecretBox.layerKey(k), Ids.layer))
        )
      // The first process seals an endpoint's secret with its key.
      yield* Effect.gen(function* () {
        yield* (yield* AccountRepository).createAccount({ id: "acct_k", name: "k", created: 1 })
        yield* (yield* WebhookEndpointRepository).create({
          id: "we_k",
          accountId: "acct_k",
          livemode: false,
          url: "https://example.com/hook",
          enabledEvents: ["*"],
          status: "enabled",
          description: null,
          created: 1,
          secret: "whsec_dev_sealed"
        })
      }).pipe(Effect.provide(store(key(1))))

      const build = (k: Uint8Array) =>
        Effect.flatMap(Scope.make(), (scope) =>
          Effect.exit(Layer.buildWithScope(store(k), scope)).pipe(
            Effect.tap(() => Scope.close(scope, Exit.void))
          )
        )
      const other = yield* build(key(2))
      expect(Exit.isFailure(other)).toBe(true)
      if (Exit.isFailure(other)) {
        expect(Cause.pretty(other.cause)).toContain("LEVY_SECRET_KEY")
        expect(String(Cause.squash(other.cause))).toContain(WRONG_KEY.slice(0, 40))
      }
      expect(Exit.isSuccess(yield* build(key(1)))).toBe(true)
    })
  )
})

describe("the key file", () => {
  it("processes creating it at once all end up with the same key, never a partial one", () => {
    const dir = mkdtempSync(join(tmpdir(), "levy-key-"))
    const path = join(dir, "secret.key")
    const module = resolve(import.meta.dirname, "../src/SecretBox.ts")
    const script = `
      import { keyFromFile } from ${JSON.stringify(module)}
      const k = Buffer.from(keyFromFile(${JSON.stringify(path)})).toString("base64")
      console.log(k)`
    // Six processes started together, each creating the file if missing.
    const out = execFileSync(
      "bash",
      [
        "-c",
        `for i in 1 2 3 4 5 6; do node --import tsx --input-type=module -e '${script.replace(/'/g, "'\\''")}' & done; wait`
      ],
      { encoding: "utf8", cwd: resolve(import.meta.dirname, "..") }
    )
    const keys = out.trim().split("\n")
    expect(keys).toHaveLength(6)
    expect(new Set(keys).size).toBe(1)
    expect(Buffer.from(keys[0] ?? "", "base64")).toHaveLength(32)
    expect(readFileSync(path, "utf8").trim()).toBe(keys[0])
    // No draft file is left behind.
    expect(readdirSync(dir)).toStrictEqual(["secret.key"])
    rmSync(dir, { recursive: true, force: true })
  }, 60_000)
})
