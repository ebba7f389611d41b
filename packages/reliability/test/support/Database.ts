/** A throwaway PostgreSQL database for a scenario, and plain SQL to look into what Levy wrote. */
import { SqlClient } from "@effect/sql"
import { Storage, Testing } from "@levy/storage"
import { Effect, Exit, ManagedRuntime, Scope } from "effect"

export interface Database {
  readonly url: string
  /** Rows of `text` (no parameters: the harness writes its own queries). */
  query: <A = Record<string, unknown>>(text: string) => Promise<ReadonlyArray<A>>
  /** Closes the pool and drops the database. */
  drop: () => Promise<void>
}

export const throwaway = async (prefix: string): Promise<Database> => {
  const scope = Effect.runSync(Scope.make())
  const { url } = await Effect.runPromise(Scope.extend(Testing.throwawayDatabase(prefix), scope))
  const runtime = ManagedRuntime.make(Storage.layerPgClient({ url, maxConnections: 2 }))
  return {
    url,
    query: <A>(text: string) =>
      runtime.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A & object>(text))
      ) as Promise<ReadonlyArray<A>>,
    drop: async () => {
      await runtime.dispose()
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }
}

/** `count(*)` of a query. */
export const count = async (db: Database, text: string): Promise<number> => {
  const rows = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM (${text}) q`)
  return Number(rows[0]?.n ?? 0)
}
