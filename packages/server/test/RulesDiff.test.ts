/**
 * `levy rules diff <from> <to> [--json]`: parsed, run in process (text and JSON: what 1.0.0 →
 * 1.1.0 changed is the CHANGELOG's 1.1.0 entry), and as the executable, where an unknown
 * version exits 2 naming the known ones.
 */
import { Ruleset, RulesetVersions } from "@levy/core"
import { Effect, Exit, Logger } from "effect"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { parse, UsageError } from "../src/cli/Args.js"
import * as RulesDiff from "../src/cli/RulesDiff.js"
import { levy } from "./levyProcess.js"

/** What a command prints on the console (Effect's Console writes through console.log). */
const printed = async (command: Parameters<typeof RulesDiff.run>[0]) => {
  const lines: Array<string> = []
  const spy = vi.spyOn(console, "log").mockImplementation((line: string) => {
    lines.push(line)
  })
  try {
    await Effect.runPromise(
      RulesDiff.run(command).pipe(Effect.provide(Logger.remove(Logger.defaultLogger)))
    )
  } finally {
    spy.mockRestore()
  }
  return lines.join("\n")
}

describe("levy rules diff", () => {
  beforeAll(() => {
    vi.spyOn(console, "error").mockImplementation(() => {})
  })
  afterAll(() => {
    vi.restoreAllMocks()
  })

  it("parses two versions and --json", async () => {
    expect(
      await Effect.runPromise(parse(["rules", "diff", "1.0.0", "latest", "--json"], {}))
    ).toEqual({ _tag: "RulesDiff", from: "1.0.0", to: "latest", json: true })
    const missing = await Effect.runPromiseExit(parse(["rules", "diff", "1.0.0"], {}))
    expect(Exit.isFailure(missing)).toBe(true)
  })

  it("prints each jurisdiction that differs, with fields, effective dates and sources", async () => {
    const text = await printed({ _tag: "RulesDiff", from: "1.0.0", to: "1.1.0", json: false })
    expect(text.split("\n")[0]).toBe(
      "Ruleset 1.0.0 → 1.1.0: 58 jurisdictions differ (53 added, 1 removed, 4 changed)."
    )
    expect(text).toContain(
      "\n~ US-CONVENIENCE-FEE-VISA (network) changed\n    fields: standardChannelOnly"
    )
    expect(text).toContain("\n- NZ-INSTORE (channel) removed\n")
    expect(text).toContain("\n+ SE (place) added\n")
    // NZ's in-store ban is dated: a version from 2026-05-01.
    expect(text).toMatch(
      /~ NZ \(place\) changed\n(.+\n)*? {4}effective dates: — → —\n {18}⇒ — → 2026-05-01; 2026-05-01 → —/
    )
  })

  it("--json: from, to and every jurisdiction's change; latest is the current version", async () => {
    const json = JSON.parse(
      await printed({ _tag: "RulesDiff", from: "1.0.0", to: "latest", json: true })
    ) as {
      from: string
      to: string
      jurisdictions: Array<{ code: string; change: string; fields: Array<string> }>
    }
    expect([json.from, json.to]).toEqual(["1.0.0", Ruleset.DEFAULT.version])
    expect(json.jurisdictions.find((j) => j.code === "US-CO")).toMatchObject({
      change: "changed",
      fields: expect.arrayContaining(["alternatives", "sources"])
    })
  })

  it("the same version twice differs nowhere", async () => {
    expect(await printed({ _tag: "RulesDiff", from: "1.1.0", to: "1.1.0", json: false })).toBe(
      "Ruleset 1.1.0 → 1.1.0: no jurisdiction's rules differ."
    )
  })

  it("an unknown version is a usage error listing the known ones", async () => {
    const exit = await Effect.runPromiseExit(
      RulesDiff.run({ _tag: "RulesDiff", from: "1.0.0", to: "0.1.0", json: false })
    )
    expect(exit).toEqual(
      Exit.fail(
        new UsageError({
          message: `No ruleset version '0.1.0'. Known versions: ${RulesetVersions.known().join(", ")} (or "latest").`
        })
      )
    )
  })

  it("as the executable: exit 2 and the known versions on stderr", async () => {
    const proc = levy(["rules", "diff", "9.9.9", "1.1.0"])
    expect(await proc.exited).toBe(2)
    expect(proc.stderr).toContain("No ruleset version '9.9.9'. Known versions: 1.0.0, 1.1.0")
    expect(proc.stdout).toBe("")
  }, 60_000)
})
