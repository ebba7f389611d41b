/**
 * `Mount.make` and `LevyService.store` take the store as docs/embedding.md shows it:
 * `{ store: "memory" }` alone (no `dataDir`, which only a directory store uses) threw
 * `TypeError: The "path" argument must be of type string`; the embedded store keeps its
 * database in `<dataDir>/data` and its key file beside it. The page's own snippet runs in
 * DocsOutputs.test.ts.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as LevyService from "@levy/engine/inprocess/LevyService.js"
import { AccountRepository } from "@levy/storage"
import { Effect, Layer } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import * as Mount from "../src/Mount.js"

const dir = mkdtempSync(join(tmpdir(), "levy-mount-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** GET `path` on the mounted API with `key`: the status. */
const get = async (levy: Mount.MountedLevy, key: string, path: string) => {
  const response = await levy.fetch(
    new Request(`https://shop.example${path}`, { headers: { authorization: `Bearer ${key}` } })
  )
  await response.text()
  return response.status
}

describe("the store as code chooses it", () => {
  it("Mount.make({ store: { store: 'memory' } }) serves the API", async () => {
    const levy = await Mount.make({
      store: { store: "memory" },
      rateLimits: { test: 100, live: 1000 },
      redisUrl: ""
    })
    try {
      const { keys } = await levy.createAccount("Corner Shop")
      expect(await get(levy, keys.secretDev, "/v1/regions/US-CO")).toBe(200)
      expect(await get(levy, "sk_dev_service_nope", "/v1/regions/US-CO")).toBe(401)
    } finally {
      await levy.close()
    }
  })

  it("Mount.make({ store: { store: 'embedded', dataDir } }) keeps the database in <dataDir>/data", async () => {
    const dataDir = join(dir, "embedded")
    const levy = await Mount.make({ store: { store: "embedded", dataDir } })
    try {
      const { keys } = await levy.createAccount("Corner Shop")
      expect(await get(levy, keys.secretDev, "/v1/regions/US-CO")).toBe(200)
      expect(existsSync(join(dataDir, "data", "PG_VERSION"))).toBe(true)
    } finally {
      await levy.close()
    }
  }, 60_000)

  it("LevyService.store({ store: 'memory' }) runs the service", async () => {
    const program = Effect.gen(function* () {
      const levy = yield* LevyService.LevyService
      const account = yield* levy.accounts.create("Corner Shop")
      return yield* Effect.flatMap(AccountRepository, (a) => a.getAccount(account.accountId))
    })
    const store = LevyService.store({ store: "memory" })
    const account = await Effect.runPromise(
      program.pipe(Effect.provide(LevyService.layer.pipe(Layer.provideMerge(store))))
    )
    expect(account.name).toBe("Corner Shop")
  })
})
