/**
 * The figures of the last run, one row per scenario, merged into
 * test-results/reliability.json (rendered into docs/reliability.md by
 * packages/reliability/report.ts, `pnpm reliability:report`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, resolve } from "node:path"

export const FILE = resolve(import.meta.dirname, "../../../../test-results/reliability.json")

export interface Figures {
  readonly scenario: string
  readonly requestsSent: number
  readonly faultsInjected: string
  readonly acknowledgedWrites: number
  readonly writesFound: number
  readonly duplicates: number
  readonly serverErrors: number
  readonly undeliveredEvents: number
  readonly notes?: string
}

/** A scenario's figures as stored, with when they were recorded. */
export type Recorded = Figures & { readonly at: string }

export const record = (figures: Figures): void => {
  const all: Record<string, Recorded> = existsSync(FILE)
    ? JSON.parse(readFileSync(FILE, "utf8"))
    : {}
  all[figures.scenario] = { ...figures, at: new Date().toISOString() }
  mkdirSync(dirname(FILE), { recursive: true })
  writeFileSync(FILE, `${JSON.stringify(all, null, 2)}\n`)
}
