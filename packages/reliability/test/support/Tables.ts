/** Row counts of every table of the schema, to see whether anything was written. */
import type { Database } from "./Database.js"

export const tables = async (db: Database): Promise<ReadonlyArray<string>> =>
  (
    await db.query<{ t: string }>(
      "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1"
    )
  ).map((r) => r.t)

export const rowCounts = async (db: Database): Promise<Record<string, number>> => {
  const counts: Record<string, number> = {}
  for (const t of await tables(db)) {
    const rows = await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${t}"`)
    counts[t] = Number(rows[0]?.n ?? 0)
  }
  return counts
}
