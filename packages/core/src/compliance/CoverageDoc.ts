/** Where the coverage table sits in docs/compliance.md, and the day it is written as of. */

/** The day the table shows the law of: the day the ruleset was last re-checked. */
export const AS_OF = "2026-11-28"

const START = "<!-- coverage:start (written by `npx -y pnpm@10 rules:coverage`) -->"
const END = "<!-- coverage:end -->"

/** The document with `table` between its markers. */
export const between = (doc: string, table: string): string => {
  const start = doc.indexOf(START)
  const end = doc.indexOf(END)
  if (start < 0 || end < start) throw new Error(`docs/compliance.md lacks ${START} ... ${END}`)
  return `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`
}

/** The table the document holds now. */
export const current = (doc: string): string | undefined => {
  const start = doc.indexOf(START)
  const end = doc.indexOf(END)
  return start < 0 || end < start ? undefined : doc.slice(start + START.length, end).trim()
}
