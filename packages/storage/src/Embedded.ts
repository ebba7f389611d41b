/**
 * The embedded store: PGlite (PostgreSQL compiled to WebAssembly) persisted in a data
 * directory, served in this process by pglite-socket on a private Unix socket, and reached
 * through the same @effect/sql-pg client, SQL and migrations as PostgreSQL.
 *
 * PGlite runs one query at a time, and only one connection is reliable (more give
 * "unnamed prepared statement does not exist" or hangs), so both the socket server and the
 * client pool allow exactly ONE connection: everything is serialized, and an open
 * transaction makes every other query wait.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer } from "effect"
import * as DataDirLock from "./DataDirLock.js"
import { StorageError } from "./StorageError.js"
import * as SqlSupport from "./sql/SqlSupport.js"

/** The port number in the socket's file name (no TCP port is opened). */
const SOCKET_PORT = 5432

/** Options of the embedded store. */
export interface EmbeddedOptions {
  /** Where the database lives; omitted means in memory (gone at exit). */
  readonly dataDir?: string | undefined
}

/** A PgClient on an embedded PGlite, for as long as the layer lives. */
export const layerClient = (options: EmbeddedOptions = {}) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      // Loaded on demand: PostgreSQL deployments never pay for the WebAssembly build.
      const { PGlite } = yield* Effect.promise(() => import("@electric-sql/pglite"))
      const { PGLiteSocketServer } = yield* Effect.promise(
        () => import("@electric-sql/pglite-socket")
      )
      // Before the files are opened: a second process must not open them at all.
      if (options.dataDir !== undefined) {
        // Owner only, as every directory it creates on the way (`.levy` too): the database
        // has no authentication of its own, and `levy serve`'s administration socket sits here.
        mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
        yield* DataDirLock.acquire(options.dataDir)
      }
      const db = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () => {
            if (options.dataDir !== undefined) {
              mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
            }
            return PGlite.create(options.dataDir)
          },
          catch: (cause) =>
            new StorageError({ message: "cannot open the embedded database", cause })
        }),
        (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
      )
      // The server listens on a Unix socket in a fresh private directory (mode 0700), not on a
      // TCP port: PGlite has no authentication, so nobody else on the machine may connect.
      const socketDir = yield* Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "levy-pglite-"))),
        (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
      )
      yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: async () => {
            const server = new PGLiteSocketServer({
              db,
              path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
              maxConnections: 1
            })
            await server.start()
            return server
          },
          catch: (cause) =>
            new StorageError({ message: "cannot start the embedded database server", cause })
        }),
        (server) => Effect.promise(() => server.stop()).pipe(Effect.ignore)
      )
      return PgClient.layer({
        // node-postgres reaches a Unix socket as `<host directory>/.s.PGSQL.<port>`.
        host: socketDir,
        port: SOCKET_PORT,
        username: "postgres",
        database: "postgres",
        maxConnections: 1,
        idleTimeout: Duration.hours(24),
        applicationName: "levy-embedded",
        types: SqlSupport.types
      }).pipe(
        Layer.mapError(
          (cause) => new StorageError({ message: "cannot connect to the embedded database", cause })
        )
      )
    })
  )
