/**
 * Support for tests that need a real PostgreSQL: a throwaway database on the local server
 * (trust auth), created for a scope and dropped with it. Used by this package's conformance
 * suite and by the server's end-to-end tests.
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer } from "effect"
import { random36 } from "./Ids.js"
import * as Storage from "./Storage.js"

/** The server tests use: `LEVY_TEST_PG`, else the local one. */
export const PG_SERVER = process.env.LEVY_TEST_PG ?? "postgres://postgres@127.0.0.1:5432"

/** A throwaway database on `PG_SERVER` for as long as the scope lives. */
export const throwawayDatabase = (prefix = "levy_test") =>
  Effect.gen(function* () {
    const admin = Context.get(
      yield* Layer.build(
        Storage.layerPgClient({ url: `${PG_SERVER}/postgres`, maxConnections: 1 })
      ),
      PgClient.PgClient
    )
    const name = `${prefix}_${random36(12)}`
    yield* Effect.acquireRelease(admin.unsafe(`CREATE DATABASE ${name}`), () =>
      admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.orDie)
    )
    return { name, url: `${PG_SERVER}/${name}` }
  })
