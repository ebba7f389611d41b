/**
 * Whether a fee configuration change raises a fee some shopper can pay (docs/design.md §6):
 * some charge would collect more under `next` than under `before`, or be refused before and
 * collect a fee after. Decided exactly, not by sampling (a sample of amounts missed a gross-up
 * raise whose cap took hold between two samples): over every currency, every amount, every
 * compliance situation, today and every later day a version of a rule takes effect.
 *
 * Why it can be exact and cheap:
 * - currencies that price alike are one: the same exponent, increment, minimum and maximum
 *   charge, and the same flat fee and fee limits on each side (what `Fee.quoteIn` reads);
 * - situations that restrict a fee alike are one (FeeRaiseContexts.ts): the engine's own
 *   policy, read once per ruleset and region for the life of the process, reduced to whether
 *   a fee is blocked, must be flat, and its rate and flat caps, then to what each side's
 *   `costOfAcceptance` and `allowUncertain` make of them;
 * - for each currency and pair of restrictions the charged fee is a monotone step function of
 *   the amount made of two kinds of atom, and FeeRaiseAmounts.ts settles every amount by proofs
 *   over intervals, enumerating only the few amounts near where the two sides cross.
 * A raise comes with the charge that shows it (`decide`). Where the search would need more than
 * `BUDGET` evaluations it stops and answers "undecided", which holds the change: the one place
 * the answer is conservative (docs/performance.md "Deciding a fee raise" measures how rare).
 * The work yields to other fibers every few milliseconds, so no request waits behind it.
 */
import {
  Compliance,
  type ComplianceRules,
  Currency,
  Decimal,
  FeeSchedule,
  type Ruleset
} from "@levy/core"
import { type Context, Effect, Either } from "effect"
import type { StoredConfig } from "./Config.js"
import * as Config from "./Config.js"
import * as Amounts from "./FeeRaiseAmounts.js"
import * as Contexts from "./FeeRaiseContexts.js"

type Rules = Context.Tag.Service<ComplianceRules>

/** What the decision found. */
export type Decision =
  | { readonly kind: "none" }
  | {
      readonly kind: "raise"
      readonly currency: string
      readonly amount: number
      readonly context: Contexts.ChargeContext
    }
  /** Not settled within the budget: held, as a raise is. */
  | { readonly kind: "undecided" }
  /** The configuration before is one the engine refuses: nothing to compare with. */
  | { readonly kind: "unpriced" }

/** Evaluations of a side's fee one decision may spend before it holds the change undecided. */
export const BUDGET = 2_000_000
/** Evaluations between two looks at the clock. */
const CHUNK = 20_000
/** Longest run without yielding to other fibers. */
const SLICE_MS = 4

/** A configuration ready to price charges. */
interface Priced {
  readonly config: StoredConfig
  readonly schedule: FeeSchedule.FeeSchedule
  readonly costOfAcceptance: number | undefined
  readonly ruleset: Ruleset.Ruleset
}

const priced = (rules: Rules, config: StoredConfig): Priced | undefined => {
  const schedule = Config.scheduleOf(config)
  const coa = Config.costOfAcceptancePpm(config.costOfAcceptance)
  const ruleset = Config.rulesetOf(rules, config)
  return Either.isLeft(schedule) || Either.isLeft(coa) || ruleset === undefined
    ? undefined
    : { config, schedule: schedule.right, costOfAcceptance: coa.right, ruleset }
}

const sameDecimal = (a: Decimal.Decimal, b: Decimal.Decimal) =>
  a.units === b.units && a.scale === b.scale

const sameFees = (a: FeeSchedule.CurrencyFees, b: FeeSchedule.CurrencyFees) =>
  sameDecimal(a.flatFee, b.flatFee) && a.minFee === b.minFee && a.maxFee === b.maxFee

/** Whether two schedules are the same, field by field (0.3 and 0.30 differ: that only costs the search). */
const sameSchedule = (a: FeeSchedule.FeeSchedule, b: FeeSchedule.FeeSchedule): boolean => {
  if (
    a.percentage.ppm !== b.percentage.ppm ||
    !sameFees(a, b) ||
    a.model !== b.model ||
    a.rounding !== b.rounding ||
    a.minAmount !== b.minAmount ||
    a.maxAmount !== b.maxAmount ||
    a.currencyFees.size !== b.currencyFees.size
  ) {
    return false
  }
  for (const [code, fees] of a.currencyFees) {
    const other = b.currencyFees.get(code)
    if (other === undefined || !sameFees(fees, other)) return false
  }
  return true
}

/** Whether `a` and `b` treat every charge alike: every input a charge's fee reads is the same. */
const samePricing = (a: Priced, b: Priced): boolean =>
  a.ruleset === b.ruleset &&
  a.costOfAcceptance === b.costOfAcceptance &&
  a.config.merchantCategoryCode === b.config.merchantCategoryCode &&
  a.config.defaultRegion === b.config.defaultRegion &&
  a.config.requireRegion === b.config.requireRegion &&
  a.config.allowUncertain === b.config.allowUncertain &&
  a.config.nonCompliant === b.config.nonCompliant &&
  sameSchedule(a.schedule, b.schedule)

// ---- lowerings proved without a search --------------------------------------

/** Rounding modes from the least to the most a percentage part can round to. */
const ROUNDING_ORDER: Readonly<Record<FeeSchedule.FeeSchedule["rounding"], number>> = {
  down: 0,
  half_even: 1,
  half_up: 2,
  up: 3
}

/** `a <= b` for fee limits where null means "none": no minimum is the least, no maximum the most. */
const atMost = (a: number | null, b: number | null, none: number) => (a ?? none) <= (b ?? none)

/**
 * Whether `n` provably charges no charge more than `b`, from the configurations alone, so a
 * lowering needs no search (the search's first run reads every region's rules: seconds of CPU).
 * Sound, not complete: it answers true only where the fee a charge collects is a non-decreasing
 * function of inputs that all moved down. The compliance step lowers a fee to
 * `min(F − max(0, min(flat, F) − flatCap), rateCap · amount)`, or `min(F, flat, flatCap,
 * rateCap · amount)` under a flat-only rule, where F is the configured fee: non-decreasing in F
 * for a fixed flat fee, and in F and the flat fee together while no minimum or maximum fee binds
 * F (F − flat is then the percentage part alone, or the gross-up's, which a lower flat fee lowers
 * by at least as much). So: the same rules, region, cost of acceptance and `adjust` (under
 * `reject` a lower fee can turn a refused charge into a collected one); no higher rate or
 * rounding; per currency, no higher flat fee, minimum or maximum fee, a flat fee changed only
 * where no side has a minimum or maximum fee, and the same currencies able to carry it; amount
 * limits no wider; uncertain places not newly allowed; a region not newly optional.
 */
const provablyNoRaise = (b: Priced, n: Priced): boolean => {
  const sb = b.schedule
  const sn = n.schedule
  if (
    b.ruleset !== n.ruleset ||
    b.costOfAcceptance !== n.costOfAcceptance ||
    b.config.merchantCategoryCode !== n.config.merchantCategoryCode ||
    b.config.defaultRegion !== n.config.defaultRegion ||
    b.config.nonCompliant !== "adjust" ||
    n.config.nonCompliant !== "adjust" ||
    (n.config.allowUncertain && !b.config.allowUncertain) ||
    (b.config.requireRegion && !n.config.requireRegion) ||
    sn.model !== sb.model ||
    sn.percentage.ppm > sb.percentage.ppm ||
    (sn.model === "add_on" && ROUNDING_ORDER[sn.rounding] > ROUNDING_ORDER[sb.rounding]) ||
    sn.minAmount < sb.minAmount ||
    !atMost(sn.maxAmount, sb.maxAmount, Number.POSITIVE_INFINITY)
  ) {
    return false
  }
  for (const unit of Currency.all) {
    const fb = FeeSchedule.feesIn(sb, unit)
    const fn = FeeSchedule.feesIn(sn, unit)
    // The flat fee in minor units, undefined where the currency cannot carry it (refused there).
    const flatB = flatMinor(fb, unit)
    const flatN = flatMinor(fn, unit)
    if ((flatB === undefined) !== (flatN === undefined)) return false
    if (flatB !== undefined && flatN !== undefined && flatN > flatB) return false
    if (!atMost(fn.minFee, fb.minFee, Number.NEGATIVE_INFINITY)) return false
    if (!atMost(fn.maxFee, fb.maxFee, Number.POSITIVE_INFINITY)) return false
    const limited =
      fb.minFee !== null || fn.minFee !== null || fb.maxFee !== null || fn.maxFee !== null
    if (flatB !== flatN && limited) return false
  }
  return true
}

// ---- the situations ---------------------------------------------------------

/** Where `p` judges a charge naming `region` (undefined: none), as the charge handler does. */
const sourceOf = (p: Priced, region: string | undefined): Contexts.Source => {
  const code = region ?? p.config.defaultRegion
  if (code === null) return { kind: p.config.requireRegion ? "refused" : "free" }
  return Contexts.knows(p.ruleset, code)
    ? {
        kind: "region",
        ruleset: p.ruleset,
        code: code.toUpperCase(),
        merchantCategory: p.config.merchantCategoryCode
      }
    : { kind: "refused" }
}

/** What a side does to a fee in one situation, for this account. */
type Spec =
  | { readonly kind: "refused" | "free" | "none" }
  | {
      readonly kind: "capped"
      readonly flatOnly: boolean
      readonly rateCap: number
      readonly flatCap: number
    }

/** Specs by key, so equal specs are one object and pairs are told apart by identity. */
const interned = new Map<string, Spec>()
const intern = (spec: Spec): Spec => {
  const key =
    spec.kind === "capped" ? `${spec.flatOnly}|${spec.rateCap}|${spec.flatCap}` : spec.kind
  let found = interned.get(key)
  if (found === undefined) {
    // Costs of acceptance are accounts' numbers: bound what they can make this hold.
    if (interned.size > 10_000) interned.clear()
    found = spec
    interned.set(key, spec)
  }
  return found
}

/** A restriction's spec for each account setting it was read under (cost of acceptance, uncertain places). */
const specs = new WeakMap<Contexts.Treatment, Map<string, Spec>>()

const specOf = (t: Contexts.Treatment, p: Priced): Spec => {
  if (t.kind !== "restricted") return intern(t)
  const setting = `${p.config.allowUncertain}|${p.costOfAcceptance}`
  let bySetting = specs.get(t)
  if (bySetting === undefined) {
    bySetting = new Map()
    specs.set(t, bySetting)
  }
  let spec = bySetting.get(setting)
  if (spec === undefined) {
    if (bySetting.size > 100) bySetting.clear()
    const r = t.restriction
    spec = intern(
      r.blocked || (r.uncertain && !p.config.allowUncertain)
        ? { kind: "none" }
        : {
            kind: "capped",
            flatOnly: r.flatOnly,
            rateCap: r.rateCap(p.costOfAcceptance),
            flatCap: r.flatCap
          }
    )
    bySetting.set(setting, spec)
  }
  return spec
}

interface SpecPair {
  readonly before: Spec
  readonly after: Spec
  readonly context: Contexts.ChargeContext
}

/**
 * The distinct pairs of what the two sides do to a fee, lane by lane (no region first): each
 * lane's pairs not met in an earlier lane. A lane is read only when the search reaches it, so a
 * raise a charge without a region shows is found before any region's rules are read (reading
 * them all is a decision's cold cost, docs/performance.md "Deciding a fee raise").
 */
const specPairsByLane = (b: Priced, n: Priced) => {
  const regions =
    b.ruleset === n.ruleset
      ? Contexts.placesOf(b.ruleset)
      : new Set([...Contexts.placesOf(b.ruleset), ...Contexts.placesOf(n.ruleset)])
  const lanes: ReadonlyArray<string | undefined> = [undefined, ...regions]
  const found = new Map<Spec, Set<Spec>>()
  const pairsOf = (region: string | undefined): ReadonlyArray<SpecPair> => {
    const before = sourceOf(b, region)
    const after = sourceOf(n, region)
    if (after.kind === "refused") return []
    const pairs: Array<SpecPair> = []
    for (const pairing of Contexts.pairings(region, before, after)) {
      const sb = specOf(pairing.before, b)
      const sa = specOf(pairing.after, n)
      let withBefore = found.get(sb)
      if (withBefore === undefined) {
        withBefore = new Set()
        found.set(sb, withBefore)
      }
      if (withBefore.has(sa)) continue
      withBefore.add(sa)
      pairs.push({ before: sb, after: sa, context: pairing.context })
    }
    return pairs
  }
  return { lanes, pairsOf }
}

// ---- the currencies ---------------------------------------------------------

/**
 * The flat fee in minor units, undefined where `unit` cannot carry it exactly (the quote is
 * refused): `Rate.flatFeeMinorOrFail`'s test, without building the error it would return.
 */
const flatMinor = (fees: FeeSchedule.CurrencyFees, unit: Currency.Currency): number | undefined => {
  const minor = Decimal.toScaled(fees.flatFee, unit.exponent)
  return minor !== undefined && minor % unit.increment === 0 ? minor : undefined
}

/** A configuration's flat fee and fee limits in `unit`, as `Fee.quoteIn` reads them. */
const feesKey = (p: Priced, unit: Currency.Currency): string => {
  const fees = FeeSchedule.feesIn(p.schedule, unit)
  return `${flatMinor(fees, unit) ?? "x"}/${fees.minFee}/${fees.maxFee}`
}

/** One currency of each group that every side prices alike. */
const currencyClasses = (b: Priced, n: Priced): ReadonlyArray<Currency.Currency> => {
  const classes = new Map<string, Currency.Currency>()
  for (const unit of Currency.all) {
    const key = `${unit.exponent}/${unit.increment}/${unit.minimumCharge}/${unit.maximumCharge}/${feesKey(b, unit)}/${feesKey(n, unit)}`
    if (!classes.has(key)) classes.set(key, unit)
  }
  return [...classes.values()]
}

/** One side's fee in `unit` under `spec`, for the amount search. */
const sideOf = (p: Priced, unit: Currency.Currency, spec: Spec): Amounts.Side => {
  const inc = unit.increment
  const s = p.schedule
  const fees = FeeSchedule.feesIn(s, unit)
  const flat = flatMinor(fees, unit)
  const refused = spec.kind === "refused" || flat === undefined
  const limit: Amounts.Limit =
    spec.kind === "capped"
      ? {
          kind: "capped",
          flatOnly: spec.flatOnly,
          cap:
            spec.rateCap === Number.POSITIVE_INFINITY
              ? undefined
              : { kind: "rate", ppm: spec.rateCap, mode: "down", inc },
          flatCap: Compliance.flatCapIn(spec.flatCap, unit)
        }
      : spec.kind === "none"
        ? { kind: "none" }
        : { kind: "free" }
  const side: Amounts.Side = {
    lo: Math.ceil(Math.max(unit.minimumCharge, s.minAmount) / inc) * inc,
    hi: refused
      ? Number.NEGATIVE_INFINITY
      : Math.floor(Math.min(unit.maximumCharge, s.maxAmount ?? unit.maximumCharge) / inc) * inc,
    inc,
    y:
      s.model === "add_on"
        ? Amounts.rateTerm(s.percentage.ppm, s.rounding, inc, flat ?? 0)
        : { atom: { kind: "gross", ppm: s.percentage.ppm, flat: flat ?? 0, inc }, k: 0 },
    minFee: fees.minFee === null ? Number.NEGATIVE_INFINITY : Math.ceil(fees.minFee / inc) * inc,
    maxFee: fees.maxFee === null ? Number.POSITIVE_INFINITY : Math.floor(fees.maxFee / inc) * inc,
    flat: flat ?? 0,
    limit,
    reject: p.config.nonCompliant === "reject"
  }
  return side
}

/** The largest accepted amount whose total (amount plus configured fee) is within `maximum`. */
const withinMaximum = (side: Amounts.Side, maximum: number): number => {
  const fits = (a: number) => a + Amounts.configuredFee(side, a) <= maximum
  const inc = side.inc
  if (side.lo > side.hi || !fits(side.lo)) return Number.NEGATIVE_INFINITY
  if (fits(side.hi)) return side.hi
  // The total grows with the amount: the last amount that fits, by bisection on the increment.
  let good = side.lo / inc
  let bad = side.hi / inc
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2)
    if (fits(mid * inc)) good = mid
    else bad = mid
  }
  return good * inc
}

// ---- the decision -----------------------------------------------------------

/** Yields to other fibers once a slice of CPU is spent. */
interface Clock {
  readonly tick: Effect.Effect<void>
}

const makeClock = (): Clock => {
  let until = performance.now() + SLICE_MS
  return {
    tick: Effect.suspend(() => {
      if (performance.now() < until) return Effect.void
      return Effect.zipRight(
        Effect.yieldNow(),
        Effect.sync(() => {
          until = performance.now() + SLICE_MS
        })
      )
    })
  }
}

/**
 * The decision with its evidence: the first charge found that collects more after the change
 * (a raise), none, or undecided within the budget. A configuration the engine refuses as
 * `next` prices nothing (the caller validates it first).
 */
export const decide = (
  rules: Rules,
  before: StoredConfig,
  next: StoredConfig
): Effect.Effect<Decision> =>
  Effect.gen(function* () {
    const b = priced(rules, before)
    const n = priced(rules, next)
    if (n === undefined) return { kind: "none" } as const
    if (b === undefined) return { kind: "unpriced" } as const
    if (samePricing(b, n) || provablyNoRaise(b, n)) return { kind: "none" } as const
    const clock = makeClock()
    const { lanes, pairsOf } = specPairsByLane(b, n)
    const units = currencyClasses(b, n)
    const budget: Amounts.Budget = { left: BUDGET }
    for (const lane of lanes) {
      const pairs = pairsOf(lane)
      yield* clock.tick
      for (const unit of units) {
        for (const pair of pairs) {
          const after = sideOf(n, unit, pair.after)
          // A charge whose total is over the currency's maximum is refused after, and compared
          // before with the fee that configuration asks: a lower fee that lets a larger total
          // fit raises nothing.
          const search = new Amounts.Search(sideOf(b, unit, pair.before), {
            ...after,
            hi: withinMaximum(after, unit.maximumCharge)
          })
          for (;;) {
            const found = search.step(budget, CHUNK)
            yield* clock.tick
            if (found === undefined) continue
            if (found.kind === "budget") return { kind: "undecided" } as const
            if (found.kind === "raise") {
              return {
                kind: "raise",
                currency: unit.code,
                amount: found.amount,
                context: pair.context
              } as const
            }
            break
          }
        }
      }
    }
    return { kind: "none" } as const
  })

/**
 * Reads every situation of the service's ruleset ahead of the first decision, which would
 * otherwise pay for it (docs/performance.md "Deciding a fee raise"): for a server to fork at
 * start. Yields like a decision does.
 */
export const warm = (rules: Rules): Effect.Effect<void> =>
  Effect.gen(function* () {
    const clock = makeClock()
    const ruleset = rules.ruleset
    for (const code of Contexts.placesOf(ruleset)) {
      const source: Contexts.Source = { kind: "region", ruleset, code, merchantCategory: null }
      Contexts.pairings(code, source, source)
      yield* clock.tick
    }
  })

/**
 * Whether the change must wait for a second key: a raise, or undecided (held rather than risk
 * applying a raise), or a `before` the engine cannot price.
 */
export const raisesFee = (
  rules: Rules,
  before: StoredConfig,
  next: StoredConfig
): Effect.Effect<boolean> => Effect.map(decide(rules, before, next), (d) => d.kind !== "none")
