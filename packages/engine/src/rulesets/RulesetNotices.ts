/**
 * Telling accounts before the law changes their fee (docs/design.md §3 "Changes announced"): a
 * background job, run when the server starts and then every `LEVY_RULESET_NOTICE_INTERVAL`
 * seconds, that writes a `ruleset.changed` event (delivered to webhooks like any other) for each
 * account, mode and change that alters what the account collects in a region it has charged in
 * or lists (`regionCodes`, `defaultRegion`). Two kinds of change:
 * - a rule of the account's ruleset (its pin, or the current one) dated to take effect within
 *   the lead time (`LEVY_RULESET_NOTICE_LEAD_DAYS`, default 30), the day before against the day;
 * - a release the server now runs, for accounts following `latest` that existed before a server
 *   first ran it: the release they were answered by before against this one, today.
 * Each region of a change is announced once per account and mode: the notice is recorded in the
 * event's transaction, and one already recorded (a restart, another process) fails it. A round
 * with no change in sight reads no account; otherwise it reads accounts in batches.
 */
import type { RulesetChange } from "@levy/api"
import { ComplianceRules, Day, type Ruleset, RulesetVersions } from "@levy/core"
import { type Account, RulesetNoticeRepository, Tenant, Transactions } from "@levy/storage"
import { Clock, Config, Duration, Effect, Layer, Option, Schedule } from "effect"
import * as Outbox from "../events/Outbox.js"
import * as FeeConfig from "../feeConfigs/Config.js"
import * as AccountChange from "./AccountChange.js"
import * as Upcoming from "./Upcoming.js"

/** How far ahead a dated change is announced by default (`LEVY_RULESET_NOTICE_LEAD_DAYS`). */
export const DEFAULT_LEAD_DAYS = 30

/** How often the job runs by default (`LEVY_RULESET_NOTICE_INTERVAL`, seconds): every 6 hours. */
export const DEFAULT_EVERY = Duration.hours(6)

/** Accounts read per batch. */
const BATCH = 100

export interface Settings {
  /** Days ahead a dated change is announced (0: on its day only). */
  readonly leadDays: number
  /** The releases known, oldest first (default: the shipped ones). */
  readonly releases?: ReadonlyArray<RulesetVersions.Release> | undefined
  /** The time to run at, Unix ms (default: the clock's). */
  readonly now?: number | undefined
}

/** A change one account may be told about. */
interface Change {
  /** The notices' key: `dated:<day>` or `release:<before>:<after>`. */
  readonly id: string
  readonly reason: RulesetChange.RulesetChange["reason"]
  readonly effectiveDate: string
  readonly before: AccountChange.Side
  readonly after: AccountChange.Side
}

/** The regions the account charged in or lists in its configuration, upper case, sorted. */
export const regionsOf = (tenant: Tenant.Tenant, config: FeeConfig.StoredConfig) =>
  Effect.map(
    Effect.flatMap(RulesetNoticeRepository, (repo) => repo.chargedRegions(tenant)),
    (charged) =>
      [
        ...new Set(
          [
            ...charged,
            ...config.regionCodes,
            ...(config.defaultRegion === null ? [] : [config.defaultRegion])
          ].map((r) => r.toUpperCase())
        )
      ].sort()
  )

/** The dated changes of `ruleset` within the lead time from `today`. */
const datedChanges = (
  ruleset: Ruleset.Ruleset,
  today: number,
  leadDays: number
): ReadonlyArray<Change> =>
  Upcoming.changeDays(ruleset, today, leadDays).map((day) => {
    const date = Day.toIso(day)
    return {
      id: `dated:${date}`,
      reason: "dated_rule",
      effectiveDate: date,
      before: { ruleset, date: Day.toIso(day - 1) },
      after: { ruleset, date }
    }
  })

/** The release change, as a change of the accounts it reaches. */
const releaseChangeOf = (
  release: Upcoming.ReleaseChange,
  current: Ruleset.Ruleset,
  today: string
): Change => ({
  id: `release:${release.before.version}:${release.after.version}`,
  reason: "release",
  effectiveDate: Day.toIso(Day.fromMillis(release.since * 1000)),
  before: { ruleset: release.before.ruleset(), date: today },
  after: { ruleset: current, date: today }
})

/** Writes the event of `change` for `regions` with its notices, in one transaction. */
const announce = (
  tenant: Tenant.Tenant,
  change: Change,
  regions: ReadonlyArray<AccountChange.Compared>
) =>
  Effect.gen(function* () {
    const object: RulesetChange.RulesetChange = {
      object: "ruleset_change",
      reason: change.reason,
      effectiveDate: change.effectiveDate,
      rulesetVersion: {
        before: change.before.ruleset.version,
        after: change.after.ruleset.version
      },
      regions: regions.map((r) => r.change),
      livemode: tenant.livemode
    }
    const repo = yield* RulesetNoticeRepository
    const transactions = yield* Transactions
    const written = yield* transactions.run(
      Effect.gen(function* () {
        const event = yield* Outbox.record(tenant, "ruleset.changed", object)
        yield* repo.record(
          regions.map((r) => ({
            accountId: tenant.accountId,
            livemode: tenant.livemode,
            changeId: change.id,
            region: r.change.region,
            effectiveDate: change.effectiveDate,
            rulesetVersion: change.after.ruleset.version,
            eventId: event.id,
            created: event.created
          }))
        )
        return event
      })
    )
    yield* Effect.logInfo("ruleset change announced", {
      account: tenant.accountId,
      livemode: tenant.livemode,
      change: change.id,
      regions: regions.map((r) => r.change.region),
      event: written.id
    })
    return 1
  }).pipe(
    // Another process announced it meanwhile: its event stands, this one was not written.
    Effect.catchTag("DuplicateRecord", () => Effect.succeed(0))
  )

/** What one round found to announce, before reading any account. */
interface Round {
  readonly today: number
  readonly leadDays: number
  readonly release: Upcoming.ReleaseChange | undefined
}

/** Announces each change of `round` that reaches the tenant; how many events it wrote. */
const announceTo = (round: Round, account: Account, tenant: Tenant.Tenant) =>
  Effect.gen(function* () {
    const rules = yield* ComplianceRules
    const repo = yield* RulesetNoticeRepository
    const config = yield* FeeConfig.inForce(tenant)
    const ruleset = FeeConfig.rulesetOf(rules, config)
    if (ruleset === undefined) {
      yield* Effect.logWarning(
        "ruleset changes not announced: the account pins an unknown ruleset",
        {
          account: account.id,
          livemode: tenant.livemode,
          rulesetVersion: config.rulesetVersion
        }
      )
      return 0
    }
    const changes = [...datedChanges(ruleset, round.today, round.leadDays)]
    if (
      round.release !== undefined &&
      config.rulesetVersion === RulesetVersions.LATEST &&
      account.created < round.release.since
    ) {
      changes.push(releaseChangeOf(round.release, rules.ruleset, Day.toIso(round.today)))
    }
    if (changes.length === 0) return 0
    const regions = yield* regionsOf(tenant, config)
    if (regions.length === 0) return 0
    let written = 0
    for (const change of changes) {
      const done = new Set(yield* repo.announced(tenant, change.id))
      const affected = AccountChange.compareAll(
        config,
        regions.filter((r) => !done.has(r)),
        change.before,
        change.after
      ).filter((c) => c.changed && !done.has(c.change.region))
      if (affected.length > 0) written += yield* announce(tenant, change, affected)
    }
    return written
  })

/** Whether any ruleset an account may be answered by changes within the lead time. */
const anyDated = (
  rulesets: ReadonlyArray<Ruleset.Ruleset>,
  today: number,
  leadDays: number
): boolean => rulesets.some((r) => Upcoming.changeDays(r, today, leadDays).length > 0)

/** One round: every account and mode told of the changes that reach it; the events written. */
export const runOnce = (settings: Settings) =>
  Effect.gen(function* () {
    const rules = yield* ComplianceRules
    const repo = yield* RulesetNoticeRepository
    const now = settings.now ?? (yield* Clock.currentTimeMillis)
    const releases = settings.releases ?? RulesetVersions.all
    const current = RulesetVersions.find(rules.ruleset.version, releases)
    const release =
      current === undefined
        ? undefined
        : Upcoming.releaseChange(
            current.version,
            yield* repo.releasesSeen(current.version, Math.floor(now / 1000)),
            releases
          )
    const round: Round = { today: Day.fromMillis(now), leadDays: settings.leadDays, release }
    const pinnable = [rules.ruleset, ...releases.map((r) => r.ruleset())]
    if (release === undefined && !anyDated(pinnable, round.today, round.leadDays)) return 0
    let written = 0
    let after: string | null = null
    for (;;) {
      const batch: ReadonlyArray<Account> = yield* repo.accounts(after, BATCH)
      for (const account of batch) {
        for (const livemode of [false, true]) {
          written += yield* announceTo(round, account, Tenant.make(account.id, livemode))
        }
      }
      if (batch.length < BATCH) return written
      after = batch[batch.length - 1]!.id
    }
  })

/** Runs now and then every `every`; a failed round (the store down) waits for the next. */
export const run = (settings: Settings, every: Duration.DurationInput = DEFAULT_EVERY) =>
  Effect.repeat(
    runOnce(settings).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("ruleset change notices failed", cause))
    ),
    Schedule.spaced(every)
  )

/** The job in a background fiber for the layer's lifetime. */
export const layer = (settings: Settings, every?: Duration.DurationInput) =>
  Layer.scopedDiscard(Effect.forkScoped(run(settings, every)))

const atLeast = (name: string, min: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `must be at least ${min}`, validation: (n) => n >= min }),
    Config.option
  )

/**
 * The job every `LEVY_RULESET_NOTICE_INTERVAL` seconds (default 6 hours), announcing dated
 * changes `LEVY_RULESET_NOTICE_LEAD_DAYS` days ahead (default 30).
 */
export const layerFromEnv = Layer.unwrapEffect(
  Effect.gen(function* () {
    const seconds = yield* atLeast("LEVY_RULESET_NOTICE_INTERVAL", 1)
    const leadDays = yield* atLeast("LEVY_RULESET_NOTICE_LEAD_DAYS", 0)
    return layer(
      { leadDays: Option.getOrElse(leadDays, () => DEFAULT_LEAD_DAYS) },
      Option.match(seconds, { onNone: () => DEFAULT_EVERY, onSome: Duration.seconds })
    )
  })
)
