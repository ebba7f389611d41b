/**
 * `levy rules diff <from> <to> --account ID [--live] [--json]`: what a difference of the law
 * means for one account in one mode (docs/design.md §3 "Changes announced"), read from the store:
 * for each region it has charged in or lists, the law on either side and the fee its own
 * configuration collects at a few amounts, the same comparison the `ruleset.changed` notices
 * make. Either two ruleset versions (on today's date), or two days ("today", "2026-07-01")
 * under the account's own ruleset (its pin, else the current one).
 */
import type { RulesetChange } from "@levy/api"
import { ComplianceRules, Currency, Day, RulesetVersions } from "@levy/core"
import * as FeeConfig from "@levy/engine/feeConfigs/Config.js"
import * as AccountChange from "@levy/engine/rulesets/AccountChange.js"
import * as RulesetNotices from "@levy/engine/rulesets/RulesetNotices.js"
import * as Store from "@levy/engine/Store.js"
import { AccountRepository, Tenant } from "@levy/storage"
import { Clock, Console, Effect } from "effect"
import { type Command, UsageError } from "./Args.js"

type DiffCommand = Extract<Command, { _tag: "RulesDiff" }>
type Account = NonNullable<DiffCommand["account"]>

/** A side as the command line names it: a release, or a day. */
type Named =
  | { readonly kind: "version"; readonly release: RulesetVersions.Release }
  | { readonly kind: "day"; readonly date: string }

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** What `text` names: "today", an ISO day, or a version ("latest" is the current one). */
const named = (text: string, today: string): Effect.Effect<Named, UsageError> => {
  if (text === "today") return Effect.succeed({ kind: "day", date: today })
  if (DATE.test(text)) {
    return Day.fromIso(text) === undefined
      ? Effect.fail(new UsageError({ message: `${text} is not a calendar date` }))
      : Effect.succeed({ kind: "day", date: text })
  }
  const release =
    text === RulesetVersions.LATEST
      ? RulesetVersions.all.find((r) => r.current)
      : RulesetVersions.find(text)
  return release === undefined
    ? Effect.fail(
        new UsageError({
          message: `${RulesetVersions.unknownMessage(text)} With --account, two days ("today", "2026-07-01") compare the account's own ruleset.`
        })
      )
    : Effect.succeed({ kind: "version", release })
}

/** The comparison of one account, as `--json` prints it. */
export interface AccountDiff {
  readonly account: string
  readonly livemode: boolean
  readonly before: { readonly rulesetVersion: string; readonly date: string }
  readonly after: { readonly rulesetVersion: string; readonly date: string }
  /** The regions charged in or listed, whether the rulesets know them or not. */
  readonly regionCodes: ReadonlyArray<string>
  readonly regions: ReadonlyArray<RulesetChange.RegionChange & { readonly changed: boolean }>
}

const terms = (t: RulesetChange.RegionTerms): string => {
  const caps = [
    t.verdict === "capped" && t.maxPercentage !== null ? `at most ${t.maxPercentage} %` : "",
    t.maxFlatFee === null ? "" : `flat part at most ${t.maxFlatFee}`
  ].filter((c) => c !== "")
  return caps.length === 0 ? t.verdict : `${t.verdict}, ${caps.join(", ")}`
}

const money = (currency: string, minor: number | null): string => {
  const unit = Currency.lookup(currency)
  return minor === null
    ? "refused"
    : unit === undefined
      ? `${minor} ${currency}`
      : Currency.format(unit, minor)
}

/** One block per region: `~` changed, `=` the same. */
const regionLines = (r: AccountDiff["regions"][number]): ReadonlyArray<string> => {
  const head = `${r.changed ? "~" : "="} ${r.region} (${r.currency})`
  if (!r.changed) return [`${head}: ${terms(r.after)}, unchanged`]
  const lines = [`${head}: ${terms(r.before)} ⇒ ${terms(r.after)}`]
  if (r.before.requiresDisclosure !== r.after.requiresDisclosure) {
    const say = (required: boolean) => (required ? "required" : "not required")
    lines.push(
      `    disclosure: ${say(r.before.requiresDisclosure)} ⇒ ${say(r.after.requiresDisclosure)}`
    )
  }
  for (const cardType of AccountChange.CARD_TYPES) {
    const fees = r.fees
      .filter((f) => f.cardType === cardType)
      .map(
        (f) =>
          `${money(r.currency, f.amount)}: ${money(r.currency, f.before)} ⇒ ${money(r.currency, f.after)}`
      )
    lines.push(`    fee, ${cardType}: ${fees.join("; ")}`)
  }
  return lines
}

/** The comparison as text: a summary, then one block per region. */
export const format = (diff: AccountDiff): string => {
  const mode = diff.livemode ? "live" : "test"
  const side = (s: AccountDiff["before"]) => `ruleset ${s.rulesetVersion} on ${s.date}`
  const changed = diff.regions.filter((r) => r.changed).length
  const unknown = diff.regionCodes.filter((c) => !diff.regions.some((r) => r.region === c))
  const lines = [
    `Account ${diff.account}, ${mode} mode: ${side(diff.before)} ⇒ ${side(diff.after)}.`,
    diff.regionCodes.length === 0
      ? "No regions: the account has charged in none and lists none (regionCodes, defaultRegion)."
      : `${diff.regionCodes.length} regions charged in or listed; ${changed} change what the account collects or must disclose.`
  ]
  if (unknown.length > 0) lines.push(`Not in either ruleset: ${unknown.join(", ")}.`)
  for (const r of diff.regions) lines.push("", ...regionLines(r))
  return lines.join("\n")
}

/** The comparison of `account` between the two sides the command names. */
export const compare = (command: DiffCommand, account: Account) =>
  Effect.gen(function* () {
    const today = Day.toIso(Day.fromMillis(yield* Clock.currentTimeMillis))
    const from = yield* named(command.from, today)
    const to = yield* named(command.to, today)
    yield* (yield* AccountRepository)
      .getAccount(account.id)
      .pipe(
        Effect.catchTag("RecordNotFound", () =>
          Effect.fail(new UsageError({ message: `no account ${account.id} in this store` }))
        )
      )
    const tenant = Tenant.make(account.id, account.live)
    const rules = yield* ComplianceRules
    const config = yield* FeeConfig.inForce(tenant)
    const own = yield* FeeConfig.pinnedRuleset(rules, config)
    const sideOf = (n: Named): AccountChange.Side =>
      n.kind === "version"
        ? { ruleset: n.release.ruleset(), date: today }
        : { ruleset: own, date: n.date }
    if (from.kind !== to.kind) {
      return yield* new UsageError({
        message: "compare two ruleset versions or two days (today, 2026-07-01), not one of each"
      })
    }
    const before = sideOf(from)
    const after = sideOf(to)
    const regionCodes = yield* RulesetNotices.regionsOf(tenant, config)
    const regions = AccountChange.compareAll(config, regionCodes, before, after).map((c) => ({
      ...c.change,
      changed: c.changed
    }))
    const diff: AccountDiff = {
      account: account.id,
      livemode: account.live,
      before: { rulesetVersion: before.ruleset.version, date: before.date },
      after: { rulesetVersion: after.ruleset.version, date: after.date },
      regionCodes,
      regions
    }
    return diff
  })

export const run = (command: DiffCommand, account: Account) =>
  Effect.flatMap(compare(command, account), (diff) =>
    Console.log(command.json ? JSON.stringify(diff, null, 2) : format(diff))
  ).pipe(Store.provide(account.store), Effect.provide(ComplianceRules.Live))
