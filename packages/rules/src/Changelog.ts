/**
 * The ruleset's CHANGELOG.md read as data: one entry per released version (`## 1.1.0 —
 * 2026-11-24`), its bullet points as the changes. A release's snapshot carries its entry, so
 * `GET /v1/rulesets` can say what each version changed without shipping the markdown.
 */

/** One version's entry. */
export interface Entry {
  readonly version: string
  /** The release date (ISO). */
  readonly released: string
  /** Each bullet point, its wrapped lines joined. */
  readonly changes: ReadonlyArray<string>
}

const HEADING = /^## (\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?) — (\d{4}-\d{2}-\d{2})\s*$/

/** The entries of a changelog, in the order written (newest first). */
export const parse = (text: string): ReadonlyArray<Entry> => {
  const entries: Array<{ version: string; released: string; changes: Array<string> }> = []
  for (const line of text.split("\n")) {
    const heading = HEADING.exec(line)
    const entry = entries.at(-1)
    if (heading !== null) entries.push({ version: heading[1]!, released: heading[2]!, changes: [] })
    else if (line.startsWith("## ")) entries.push({ version: "", released: "", changes: [] })
    else if (entry === undefined || entry.version === "") continue
    else if (line.startsWith("- ")) entry.changes.push(line.slice(2).trim())
    else if (line.startsWith("  ") && entry.changes.length > 0) {
      entry.changes[entry.changes.length - 1] += ` ${line.trim()}`
    }
  }
  return entries.filter((e) => e.version !== "")
}

/** The entry of `version`, if the changelog has one. */
export const entryOf = (text: string, version: string): Entry | undefined =>
  parse(text).find((e) => e.version === version)
