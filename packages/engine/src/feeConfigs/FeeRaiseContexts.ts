/**
 * Every compliance situation a charge can be in, reduced to what it does to a fee
 * (`Compliance.Restriction`), on both sides of a fee configuration change (FeeRaise.ts).
 *
 * Why this is every situation: a charge's fee reads its context only through the engine's
 * policy for (region, day, network, cardholder, fee type, channel, card type, scheme, issuing
 * situation, standard channel) and the payment's own card type, recurring and disclosed flags.
 * Of these, the region, cardholder, fee type, channel, card type, recurring and disclosed are
 * enumerated always; a network, scheme or issuing situation only where a rule the region reads
 * (its place, its country, the country's network and channel rules, every version) names one
 * or scopes a clause by it, and the standard channel only where a rule limits a fee to outside
 * it: elsewhere the policy never reads them. Days are walked from today (charges are judged at
 * the server's time) to the last version change, each step to the first day the policy read
 * stops holding (`validUntil`), so every version in force today or later is met. Reading a
 * region is the costly part (a policy built per situation): each lane is read once per process. Situations that restrict a fee alike
 * (the restriction's key) are one: a region has tens of kinds, not thousands of contexts.
 * Both sides are enumerated together, context by context, so a change of ruleset version or
 * `defaultRegion` pairs each side's restriction as one charge meets them.
 */
import { Compliance, Day, type Rule, type Ruleset } from "@levy/core"

/** What one side does with a charge in some context. */
export type Treatment =
  | { readonly kind: "refused" }
  | { readonly kind: "free" }
  | { readonly kind: "restricted"; readonly restriction: Compliance.Restriction }

/**
 * The context of a charge, as a charge request would carry it (the witness of a raise): the
 * cost of acceptance and merchant category are the account's, each side's own (`Source`).
 */
export type ChargeContext = Omit<
  Compliance.ComplianceContext,
  "costOfAcceptance" | "merchantCategoryCode" | "allowUncertain"
>

/** One way a charge can be treated before and after, with a context that meets it. */
export interface Pairing {
  readonly before: Treatment
  readonly after: Treatment
  readonly context: ChargeContext
}

/** Where a side's charges in a lane are judged: a region of a ruleset, no rules, or refused. */
export type Source =
  | {
      readonly kind: "region"
      readonly ruleset: Ruleset.Ruleset
      readonly code: string
      /** The side's merchant category (null: none): the account's setting, not a charge's. */
      readonly merchantCategory: string | null
    }
  | { readonly kind: "free" }
  | { readonly kind: "refused" }

/** The dimensions of a context the policies of a region read, beyond those always enumerated. */
interface Dims {
  readonly networks: ReadonlyArray<string>
  readonly schemes: ReadonlyArray<Rule.Scheme | undefined>
  readonly issuing: boolean
  readonly standardChannel: boolean
}

/** A network no rule names (a clause scoped by network does not match it; "" matches all). */
const UNNAMED_NETWORK = "unnamed-network"
const SCHEMES: ReadonlyArray<Rule.Scheme> = ["four_party", "three_party", "national_debit"]

const rulesRead = (ruleset: Ruleset.Ruleset, code: string): ReadonlyArray<Rule.Rule> => {
  const country = code.slice(0, 2)
  const versions = [
    ...(ruleset.places.get(code) ?? []),
    ...(code.length > 2 ? (ruleset.places.get(country) ?? []) : []),
    ...(ruleset.networks.get(country) ?? []).flat(),
    ...(ruleset.channels.get(country) ?? []).flat()
  ]
  return versions.map((v) => v.rule)
}

const dimsOf = (ruleset: Ruleset.Ruleset, code: string): Dims => {
  const rules = rulesRead(ruleset, code)
  const clauses = rules.flatMap((r) => r.clauses ?? [])
  const networkRules = rules.filter((r) => r.kind === "network")
  const named = new Set([
    ...networkRules.flatMap((r) => r.networks),
    ...clauses.flatMap((c) => c.scope.networks ?? [])
  ])
  const clauseNetworks = clauses.some((c) => c.scope.networks !== undefined)
  const terms = rules.flatMap((r) => [r, r.business ?? {}, r.convenienceFee ?? {}])
  return {
    // A network no rule names selects every network rule, as none does; only a clause scoped
    // by network tells the two apart.
    networks: [...(clauseNetworks ? ["", UNNAMED_NETWORK] : [""]), ...named],
    schemes: clauses.some((c) => c.scope.schemes !== undefined)
      ? [undefined, ...SCHEMES]
      : [undefined],
    issuing: clauses.some((c) => c.scope.issuing !== undefined),
    standardChannel:
      terms.some((t) => t.standardChannelOnly === true) ||
      clauses.some((c) => c.terms.standardChannelOnly === true)
  }
}

/**
 * Issuing countries that meet every issuing situation in each of `countries`: each of them
 * (domestic), another country of the EEA (same area, or foreign outside it), one outside.
 */
const issuersFor = (countries: ReadonlyArray<string>): ReadonlyArray<string | undefined> => {
  const other = (list: ReadonlyArray<string>) => list.find((c) => !countries.includes(c))!
  return [undefined, ...new Set(countries), other(["DE", "FR", "NL"]), other(["US", "JP", "BR"])]
}

const union = <A>(a: ReadonlyArray<A>, b: ReadonlyArray<A>): ReadonlyArray<A> => [
  ...new Set([...a, ...b])
]

/** The contexts of a lane, without region and date. */
const situations = (sources: ReadonlyArray<Source>): ReadonlyArray<ChargeContext> => {
  const regions = sources.flatMap((s) => (s.kind === "region" ? [s] : []))
  const all = regions.map((s) => dimsOf(s.ruleset, s.code.toUpperCase()))
  const dims = all.reduce(
    (x, y) => ({
      networks: union(x.networks, y.networks),
      schemes: union(x.schemes, y.schemes),
      issuing: x.issuing || y.issuing,
      standardChannel: x.standardChannel || y.standardChannel
    }),
    { networks: [""], schemes: [undefined], issuing: false, standardChannel: false } as Dims
  )
  const issuers = dims.issuing
    ? issuersFor(regions.map((s) => s.code.slice(0, 2).toUpperCase()))
    : [undefined]
  const out: Array<ChargeContext> = []
  for (const cardholder of ["consumer", "business"] as const)
    for (const feeType of ["surcharge", "convenience_fee"] as const)
      for (const channel of ["online", "in_person"] as const)
        for (const cardType of [undefined, "credit", "debit", "prepaid"] as const)
          for (const network of dims.networks)
            for (const scheme of dims.schemes)
              for (const issuer of issuers)
                for (const standard of dims.standardChannel ? [false, true] : [false])
                  out.push({
                    cardholder,
                    feeType,
                    channel,
                    ...(cardType === undefined ? {} : { cardType }),
                    ...(network === "" ? {} : { cardNetwork: network }),
                    ...(scheme === undefined ? {} : { cardScheme: scheme }),
                    ...(issuer === undefined ? {} : { cardIssuingCountry: issuer }),
                    ...(standard ? { standardChannel: channel } : {})
                  })
  return out
}

const REFUSED: Treatment = { kind: "refused" }
const FREE: Treatment = { kind: "free" }
const flagCount = Compliance.PAYMENT_FLAGS.length

/** How `source` treats the context's payments, one per `Compliance.PAYMENT_FLAGS`, and until when. */
const treatmentsOf = (
  source: Source,
  ctx: ChargeContext,
  date: string
): { readonly treatments: ReadonlyArray<Treatment>; readonly until: number } => {
  if (source.kind !== "region") {
    return {
      treatments: Array(flagCount).fill(source.kind === "free" ? FREE : REFUSED),
      until: Number.POSITIVE_INFINITY
    }
  }
  const found = Compliance.restrictionsOf(source.ruleset, {
    ...ctx,
    region: source.code,
    date,
    merchantCategoryCode: source.merchantCategory
  })
  if (found === undefined || !Array.isArray(found)) {
    return { treatments: Array(flagCount).fill(REFUSED), until: Number.POSITIVE_INFINITY }
  }
  const restrictions = found as ReadonlyArray<Compliance.Restriction>
  return {
    treatments: restrictions.map((restriction) => treated(restriction)),
    until: restrictions[0]!.validUntil
  }
}

/** One treatment per restriction, so pairs can be told apart by identity before by key. */
const treatedCache = new WeakMap<Compliance.Restriction, Treatment>()
const treated = (restriction: Compliance.Restriction): Treatment => {
  let t = treatedCache.get(restriction)
  if (t === undefined) {
    t = { kind: "restricted", restriction }
    treatedCache.set(restriction, t)
  }
  return t
}

export const treatmentKey = (t: Treatment): string =>
  t.kind === "restricted" ? t.restriction.key : t.kind

/**
 * The distinct ways a charge of the lane is treated before and after, each with a context
 * (`region` as the charge names it) that meets it.
 */
const enumerate = (
  today: number,
  region: string | undefined,
  before: Source,
  after: Source
): ReadonlyArray<Pairing> => {
  const seen = new Map<Treatment, Set<Treatment>>()
  const found = new Map<string, Pairing>()
  const dates = new Map<number, string>()
  for (const situation of situations([before, after])) {
    let day = today
    for (;;) {
      let date = dates.get(day)
      if (date === undefined) {
        date = Day.toIso(day)
        dates.set(day, date)
      }
      const b = treatmentsOf(before, situation, date)
      const a = after === before ? b : treatmentsOf(after, situation, date)
      for (let i = 0; i < flagCount; i++) {
        const tb = b.treatments[i]!
        const ta = a.treatments[i]!
        let pairs = seen.get(tb)
        if (pairs === undefined) {
          pairs = new Set()
          seen.set(tb, pairs)
        }
        if (pairs.has(ta)) continue
        pairs.add(ta)
        const key = `${treatmentKey(tb)}#${treatmentKey(ta)}`
        if (found.has(key)) continue
        found.set(key, {
          before: tb,
          after: ta,
          // Today's charges name no date: they are judged at the server's time.
          context: {
            ...(region === undefined ? {} : { region }),
            ...situation,
            ...Compliance.PAYMENT_FLAGS[i]!,
            ...(day === today ? {} : { date })
          }
        })
      }
      const until = Math.min(b.until, a.until)
      if (until === Number.POSITIVE_INFINITY) break
      day = until
    }
  }
  return [...found.values()]
}

/**
 * Lanes already enumerated, by the rulesets they read (a ruleset never changes), kept for the
 * life of the process: read from the day of the first decision on, a lane's pairings hold every
 * later day's too (and a day that has passed can still be named by a charge's `date`).
 */
const cache = new WeakMap<object, WeakMap<object, Map<string, ReadonlyArray<Pairing>>>>()
const NO_RULESET = {}

const rulesetOf = (s: Source): object => (s.kind === "region" ? s.ruleset : NO_RULESET)
const codeOf = (s: Source): string =>
  s.kind === "region" ? `${s.code}/${s.merchantCategory ?? ""}` : s.kind

/**
 * The pairings of one lane: charges naming `region` (undefined: none, so each side's
 * `defaultRegion` or no rules) judged by `before` and `after`. Enumerated once per process for
 * each pair of rulesets and regions, then reused.
 */
export const pairings = (
  region: string | undefined,
  before: Source,
  after: Source
): ReadonlyArray<Pairing> => {
  const same =
    before.kind === "region" &&
    after.kind === "region" &&
    before.ruleset === after.ruleset &&
    before.code === after.code &&
    before.merchantCategory === after.merchantCategory
  let byAfter = cache.get(rulesetOf(before))
  if (byAfter === undefined) {
    byAfter = new WeakMap()
    cache.set(rulesetOf(before), byAfter)
  }
  let lanes = byAfter.get(rulesetOf(after))
  if (lanes === undefined) {
    lanes = new Map()
    byAfter.set(rulesetOf(after), lanes)
  }
  const key = `${region ?? ""}|${codeOf(before)}|${codeOf(after)}`
  let found = lanes.get(key)
  if (found === undefined) {
    found = enumerate(Day.fromMillis(Date.now()), region, before, same ? before : after)
    lanes.set(key, found)
  }
  return found
}

/** The place codes of a ruleset: the regions a charge can name and have judged. */
export const placesOf = (ruleset: Ruleset.Ruleset): Iterable<string> => ruleset.places.keys()

/** Whether the engine knows `code` as a place of `ruleset` (an unknown one collects nothing). */
export const knows = (ruleset: Ruleset.Ruleset, code: string): boolean =>
  ruleset.places.has(code.toUpperCase())
