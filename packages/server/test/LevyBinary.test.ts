/**
 * The bundle a test or benchmark server runs (scripts/levyBinary.ts) is ASCII, so that Node
 * holds its text one byte a character, and the escapes mean what the characters meant.
 */
import { describe, expect, it } from "@effect/vitest"
import { asciiOnly } from "../../../scripts/levyBinary.js"

describe("levyBinary.asciiOnly", () => {
  it("escapes every character outside ASCII, in comments and regular expressions alike", () => {
    const source = [
      "// § 604A.002 — not greater than the cost",
      "export const heading = /^## (\\d+) — (\\d{4})$/",
      'export const quoted = "café"'
    ].join("\n")
    const escaped = asciiOnly(source)
    expect(/[\u0080-\uffff]/.test(escaped)).toBe(false)
    expect(escaped).toContain("\\u00a7 604A.002 \\u2014 not")
    const run = (text: string) =>
      new Function(`${text.replaceAll("export const", "const")}; return [heading, quoted]`)() as [
        RegExp,
        string
      ]
    const [before, beforeText] = run(source)
    const [after, afterText] = run(escaped)
    expect(after.exec("## 3 — 2026")?.slice(1)).toEqual(before.exec("## 3 — 2026")?.slice(1))
    expect(after.test("## 3 - 2026")).toBe(false)
    expect(afterText).toBe(beforeText)
  })

  it("leaves ASCII text as it is", () => {
    const source = 'const a = "plain" // nothing to escape\n'
    expect(asciiOnly(source)).toBe(source)
  })
})
