/**
 * `levy rules diff <from> <to> [--json]`: parsed, run in process (text and JSON: what 1.0.0 →
 * 1.1.0 changed is the CHANGELOG's 1.1.0 entry), and as the executable, where an unknown
 * version exits 2 naming the known ones. With `--account`: what it means for that account.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ComplianceRules, Ruleset, RulesetVersions } from "@levy/core"
import * as Store from "@levy/engine/Store.js"
import {
  AccountRepository,
  ChargeRepository,
  FeeConfigRepository,
  Ids,
  Storage,
  Tenant,
  Testing
} from "@levy/storage"
import { Clock, Effect, Exit, Layer, Logger } from "effect"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { parse, UsageError } from "../src/cli/Args.js"
import * as RulesDiff from "../src/cli/RulesDiff.js"
import * as RulesDiffAccount from "../src/cli/RulesDiffAccount.js"
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

/**
 * `levy rules diff <from> <to> --account ID`: what the difference means for one account's
 * regions and fee, read from its store. Australia's surcharge ban from 2026-10-01
 * (packages/rules/research/AU.json, its 2026-10-01 version) is a dated change in the past, so the
 * answers do not move with the calendar.
 */
describe("levy rules diff --account", () => {
  /** The day the version comparisons are made on. */
  const TODAY = Date.UTC(2026, 10, 28, 12)
  const fixedClock = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.withClock(effect, {
      [Clock.ClockTypeId]: Clock.ClockTypeId,
      unsafeCurrentTimeMillis: () => TODAY,
      currentTimeMillis: Effect.succeed(TODAY),
      unsafeCurrentTimeNanos: () => BigInt(TODAY) * 1_000_000n,
      currentTimeNanos: Effect.succeed(BigInt(TODAY) * 1_000_000n),
      sleep: Effect.sleep
    })

  /** An account charged in AU and listing GB and an unknown code, in test mode. */
  const seed = (accountId: string) =>
    Effect.gen(function* () {
      yield* (yield* AccountRepository).createAccount({ id: accountId, name: "diff", created: 0 })
      const test = Tenant.make(accountId, false)
      yield* (yield* FeeConfigRepository).initialize(test, { regionCodes: ["GB", "xx"] }, 0)
      yield* (yield* ChargeRepository).insert({
        id: `ch_${accountId}`,
        accountId,
        livemode: false,
        created: 0,
        amount: 10_000,
        convenienceFee: 320,
        totalAmount: 10_320,
        currency: "aud",
        status: "succeeded",
        customer: null,
        description: null,
        metadata: {},
        region: "AU",
        cardType: "credit",
        feeBreakdown: { percentage: 290, flatFee: 30, adjustment: 0 },
        compliance: null,
        failureCode: null,
        failureMessage: null,
        details: { source: "tok_visa" }
      })
    })

  const memory = { store: "memory", dataDir: ".levy" } as const

  /** The comparison over a memory store seeded with `acct_diff`. */
  const compared = (from: string, to: string, live = false, accountId = "acct_diff") => {
    const account = { id: accountId, live, store: memory }
    return Effect.runPromiseExit(
      Effect.zipRight(
        seed("acct_diff"),
        RulesDiffAccount.compare({ _tag: "RulesDiff", from, to, json: false, account }, account)
      ).pipe(
        fixedClock,
        Effect.provide(
          Layer.merge(Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer)), ComplianceRules.Live)
        )
      )
    )
  }

  const diffOf = async (from: string, to: string, live = false) => {
    const exit = await compared(from, to, live)
    if (Exit.isFailure(exit)) throw new Error(String(exit.cause))
    return exit.value
  }

  it("parses --account with --live and the store; --live alone is a usage error", async () => {
    expect(
      await Effect.runPromise(
        parse(
          [
            "rules",
            "diff",
            "today",
            "2026-12-01",
            "--account",
            "acct_x",
            "--live",
            "--store",
            "memory"
          ],
          {}
        )
      )
    ).toEqual({
      _tag: "RulesDiff",
      from: "today",
      to: "2026-12-01",
      json: false,
      account: { id: "acct_x", live: true, store: { store: "memory", dataDir: ".levy" } }
    })
    const exit = await Effect.runPromiseExit(
      parse(["rules", "diff", "1.0.0", "latest", "--live"], {})
    )
    expect(exit).toEqual(Exit.fail(new UsageError({ message: "--live needs --account" })))
  })

  it("two days under the account's own ruleset: every region it charged in or lists", async () => {
    const diff = await diffOf("2026-09-30", "2026-10-01")
    expect(diff.regionCodes).toEqual(["AU", "GB", "XX"])
    expect(diff.before).toEqual({ rulesetVersion: Ruleset.DEFAULT.version, date: "2026-09-30" })
    expect(diff.after).toEqual({ rulesetVersion: Ruleset.DEFAULT.version, date: "2026-10-01" })
    const au = diff.regions.find((r) => r.region === "AU")!
    expect(au).toMatchObject({
      changed: true,
      currency: "aud",
      before: { verdict: "allowed" },
      after: { verdict: "prohibited", maxPercentage: 0 }
    })
    expect(au.fees).toHaveLength(6)
    for (const fee of au.fees) {
      expect(fee.before).toBeGreaterThan(0)
      expect(fee.after).toBe(0)
    }
    expect(diff.regions.find((r) => r.region === "GB")).toMatchObject({ changed: false })
    const text = RulesDiffAccount.format(diff)
    expect(text.split("\n").slice(0, 3)).toEqual([
      `Account acct_diff, test mode: ruleset ${Ruleset.DEFAULT.version} on 2026-09-30 ⇒ ruleset ${Ruleset.DEFAULT.version} on 2026-10-01.`,
      "3 regions charged in or listed; 1 change what the account collects or must disclose.",
      "Not in either ruleset: XX."
    ])
    expect(text).toContain("\n~ AU (aud): allowed ⇒ prohibited\n    fee, credit: A$10.00: A$")
    expect(text).toContain("\n= GB (gbp): prohibited, unchanged")
    // Its live mode has no regions.
    expect(RulesDiffAccount.format(await diffOf("2026-09-30", "today", true))).toContain(
      "No regions: the account has charged in none and lists none"
    )
  })

  it("two versions on today's date; a version and a day together, or an unknown account, is a usage error", async () => {
    const diff = await diffOf("1.0.0", "latest")
    expect(diff.before).toEqual({ rulesetVersion: "1.0.0", date: "2026-11-28" })
    expect(diff.after).toEqual({ rulesetVersion: Ruleset.DEFAULT.version, date: "2026-11-28" })
    // 1.0.0 held Australia's 2026 change unsettled ("Treat as subject to change on 2026-07-01");
    // the research since reads the ban.
    expect(diff.regions.find((r) => r.region === "AU")).toMatchObject({
      changed: true,
      before: { verdict: "uncertain" },
      after: { verdict: "prohibited" }
    })
    expect(await compared("1.0.0", "2026-10-01")).toEqual(
      Exit.fail(
        new UsageError({
          message: "compare two ruleset versions or two days (today, 2026-07-01), not one of each"
        })
      )
    )
    expect(await compared("today", "2026-02-30")).toEqual(
      Exit.fail(new UsageError({ message: "2026-02-30 is not a calendar date" }))
    )
    expect(await compared("today", "2026-12-01", false, "acct_none")).toEqual(
      Exit.fail(new UsageError({ message: "no account acct_none in this store" }))
    )
  })

  it("as the executable on a PostgreSQL store: --json", async () => {
    // PostgreSQL rather than the embedded store: the command is the same on both, and
    // creating an embedded store here, then opening it in the child, cost ~9 s of CPU.
    const dir = mkdtempSync(join(tmpdir(), "levy-rules-diff-"))
    try {
      await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const { url } = yield* Testing.throwawayDatabase("levy_rules_diff")
            const store = { store: "postgres", dataDir: dir, databaseUrl: url } as const
            yield* Effect.flatMap(Layer.build(Store.layer(store)), (context) =>
              Effect.provide(seed("acct_exe"), context)
            )
            const proc = levy(
              [
                "rules",
                "diff",
                "2026-09-30",
                "2026-10-01",
                "--account",
                "acct_exe",
                "--store",
                "postgres",
                "--data-dir",
                dir,
                "--json"
              ],
              { DATABASE_URL: url }
            )
            expect(yield* Effect.promise(() => proc.exited)).toBe(0)
            const json = JSON.parse(proc.stdout) as RulesDiffAccount.AccountDiff
            expect(json.account).toBe("acct_exe")
            expect(json.regions.filter((r) => r.changed).map((r) => r.region)).toEqual(["AU"])
          })
        )
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
