/** Calendar days as integers (days since 1970-01-01, UTC): rules are effective-dated by day. */

const MS_PER_DAY = 86_400_000
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** The day of an ISO date ("2025-11-01"), or undefined when it is not a real date. */
export const fromIso = (text: string): number | undefined => {
  const match = ISO_DATE.exec(text)
  if (match === null) return undefined
  const [, y, m, d] = match.map(Number) as [number, number, number, number]
  const ms = Date.UTC(y, m - 1, d)
  const back = new Date(ms)
  return back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d
    ? ms / MS_PER_DAY
    : undefined
}

/** The ISO date of a day. */
export const toIso = (day: number): string => new Date(day * MS_PER_DAY).toISOString().slice(0, 10)

/** Today, from a clock reading in milliseconds. */
export const fromMillis = (ms: number): number => Math.floor(ms / MS_PER_DAY)
