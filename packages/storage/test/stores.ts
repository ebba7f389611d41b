/**
 * The three stores the conformance suite runs against, each a fresh, empty store:
 * memory; PostgreSQL in a throwaway database `levy_test_<random>` on the local server
 * (dropped afterwards); embedded PGlite in a temporary data directory (deleted afterwards).
 *
 * A missing PostgreSQL skips only that store, loudly, and never in CI (CI=true).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { Ids } from "../src/Ids.js"
import { SecretBox } from "../src/SecretBox.js"
import * as Storage from "../src/Storage.js"
import { PG_SERVER, throwawayDatabase } from "../src/Testing.js"

export { PG_SERVER } from "../src/Testing.js"

export const CI = process.env.CI === "true"

/** Whether something accepts TCP connections at the server's host and port. */
const reachable = (url: string): Promise<boolean> => {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 5432), timeout: 1_000 })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.once("connect", () => done(true))
    socket.once("error", () => done(false))
    socket.once("timeout", () => done(false))
  })
}

export const pgAvailable = await reachable(PG_SERVER)

if (!pgAvailable && !CI) {
  console.warn(
    `\n${"!".repeat(78)}\n!! PostgreSQL is not reachable at ${PG_SERVER}: the PostgreSQL store's tests are SKIPPED.\n` +
      `!! Start it (pg_ctlcluster ... main start) to run them; in CI (CI=true) they never skip.\n${"!".repeat(78)}\n`
  )
}

export { throwawayDatabase }

/** A temporary directory for as long as the scope lives. */
export const temporaryDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "levy-storage-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const support = Layer.merge(Ids.layer, SecretBox.layerRandom)

export const memory = Storage.layerMemory.pipe(Layer.provide(Ids.layer))

export const postgres = Layer.unwrapScoped(
  Effect.map(throwawayDatabase(), ({ url }) => Storage.layerPostgres({ url, maxConnections: 10 }))
).pipe(Layer.provide(support))

export const embedded = Layer.unwrapScoped(
  Effect.map(temporaryDirectory, (dir) => Storage.layerEmbedded({ dataDir: join(dir, "data") }))
).pipe(Layer.provide(support))

/** The stores to run, with whether to skip each. */
export const stores = [
  { name: "memory", layer: memory as Layer.Layer<Storage.Repositories, unknown>, skip: false },
  {
    name: "postgres",
    layer: postgres as Layer.Layer<Storage.Repositories, unknown>,
    skip: !pgAvailable && !CI
  },
  { name: "embedded", layer: embedded as Layer.Layer<Storage.Repositories, unknown>, skip: false }
] as const
