/**
 * The rules that bind one situation (place, date, network, cardholder, fee type, channel),
 * merged strictest-wins: a subdivision inherits its country's law, network and channel
 * rules apply on top. Computed once per situation and day, then reused.
 */
import * as Clauses from "./Clauses.js"
import * as IssuingOf from "./Issuing.js"
import type {
  AmountRange,
  CardType,
  Channel,
  Clause,
  Issuing,
  Limit,
  Rule,
  Scheme
} from "./Rule.js"
import * as Ruleset from "./Ruleset.js"

/** Card-type bits. */
export const CARD_BIT: Readonly<Record<CardType, number>> = { credit: 1, debit: 2, prepaid: 4 }
/** Every card type: what an unknown card type must be allowed as. */
export const ALL_CARDS = 7

/** A bound on a fee and the rule that set it. */
export interface Bound {
  readonly value: number
  readonly by: Rule | undefined
}

/** One alternative of an election in the engine's units: ppm of the amount, thousandths of a major unit. */
export interface ElectedLimit {
  readonly ppm: number
  readonly flat: number
  readonly costOfAcceptance: boolean
}

/** Limits a rule lets the merchant choose between: a fee within any one of them is within the rule. */
export interface Election {
  readonly limits: ReadonlyArray<ElectedLimit>
  readonly by: Rule
}

/** The merged limits for one situation. */
export interface Policy {
  readonly day: number
  /** First day from which this policy holds (the latest start of a version it used). */
  readonly validFrom: number
  /** First day on which it no longer holds (a version of a rule it read starts); Infinity for never. */
  readonly validUntil: number
  /** Codes of every rule in force that was applied. */
  readonly rules: ReadonlyArray<string>
  /** The most specific place rule in force (the label in messages), if any. */
  readonly place: Rule | undefined
  /** A place or subdivision code with no version in force on the day. */
  readonly missing: string | undefined
  readonly prohibitedBy: Rule | undefined
  readonly uncertainBy: Rule | undefined
  readonly cardholderBy: Rule | undefined
  readonly channelBy: Rule | undefined
  readonly recurringBy: Rule | undefined
  readonly flatOnlyBy: Rule | undefined
  /** A rule that allows the fee only outside the merchant's standard channel, and this is it. */
  readonly standardChannelBy: Rule | undefined
  /** Elections between limits; each binds on top of `cap` (see Compliance.rateCap). */
  readonly elections: ReadonlyArray<Election>
  /** Allowed card types as bits, and the rule that narrowed them last. */
  readonly cardTypes: Bound
  /** Caps in parts per million of the amount; Infinity when none. */
  readonly legalCap: Bound
  readonly networkCap: Bound
  /** The lower of the two, with the reason code for exceeding it (law wins ties). */
  readonly cap: {
    readonly value: number
    readonly code: "percentage_over_limit" | "network_cap_exceeded"
    readonly by: Rule | undefined
  }
  /** Cap on the flat part in thousandths of a major unit; Infinity when none. */
  readonly flatCap: Bound
  readonly costOfAcceptanceBy: Rule | undefined
  readonly disclosureBy: Rule | undefined
  readonly disclosureText: string | null
  /** The situation it was built for (an amount-scoped rule's policy is rebuilt with the amount). */
  readonly situation: Situation
  /** Amount ranges of the clauses read: empty when no verdict here depends on the amount. */
  readonly amountScopes: ReadonlyArray<AmountRange>
  /** The rule whose network parity applied: other networks' rules bind this card too. */
  readonly parityBy: Rule | undefined
  /** Rules that bind here only through `parityBy` (another network's, or the place's for its scheme). */
  readonly throughParity: ReadonlySet<Rule>
  /** Reason texts built for this policy, by key (see Compliance). */
  readonly texts: Map<string, string>
  /** No rule blocks a fee outright here: only card type, disclosure and caps remain to check. */
  readonly open: boolean
  /** The failure for exceeding `cap`, built once when first needed (see Compliance). */
  capFailure: { readonly code: string; readonly reason: string } | undefined
}

/** The situation a policy is for. */
export interface Situation {
  readonly region: string
  readonly day: number
  readonly network: string
  readonly business: boolean
  readonly convenienceFee: boolean
  readonly channel: Channel
  /** Only clause rules read these; undefined when the payment does not say. */
  readonly cardType: CardType | undefined
  readonly scheme: Scheme | undefined
  readonly issuing: Issuing | undefined
  readonly standardChannel: Channel | undefined
  /** The transaction amount; undefined when unknown (amount-scoped clauses then bind their strictest). */
  readonly amount: Clauses.Amount | undefined
  /** The merchant's category code; undefined when not stated (no category-scoped clause applies). */
  readonly merchantCategory: string | undefined
}

/** The merged policy for a situation, or undefined when the region is not a known place. */
export const build = (ruleset: Ruleset.Ruleset, s: Situation): Policy | undefined => {
  const own = ruleset.places.get(s.region)
  if (own === undefined) return undefined
  const country = s.region.slice(0, 2)
  const chain = s.region.length > 2 ? [ruleset.places.get(country), own] : [own]
  const merger = new Merger(s)
  const places: Array<Ruleset.CompiledRule> = []
  for (const versions of chain) {
    if (versions === undefined) continue
    merger.watch(versions)
    const rule = Ruleset.inForce(versions, s.day)
    if (rule === undefined) merger.missing = versions[0]!.rule.code
    else {
      places.push(rule)
      merger.addPlace(rule.rule, termsFor(rule, s))
    }
  }
  const networks = ruleset.networks.get(country) ?? []
  const channels = ruleset.channels.get(country) ?? []
  for (const versions of networks) merger.watch(versions)
  for (const versions of channels) merger.watch(versions)
  for (const rule of selectNetworks(networks, s)) {
    merger.add(rule.rule, termsFor(rule, s))
  }
  if (merger.parityBy !== undefined) addParity(merger, places, networks, s)
  for (const versions of channels) {
    const rule = Ruleset.inForce(versions, s.day)
    // A channel rule with clauses scopes its own channels; one without names its channel.
    const applies = rule?.rule.channel === s.channel || rule?.rule.clauses !== undefined
    if (rule !== undefined && applies && governs(rule.rule, s)) {
      merger.add(rule.rule, termsFor(rule, s))
    }
  }
  return merger.result()
}

/**
 * Network parity: a fee on this card may be no higher than the account's fee on a comparable
 * card of each other network the place has a rule for. The account's configuration is one fee
 * for every network, lowered per card by the rules; so the fee here is within parity exactly
 * when it is also within each other network's rules and the place's law for that network's
 * scheme, as they stand for the same payment on that network's card. Those bind here as well,
 * one level deep: another network's own parity rule is not followed further (with the same
 * configuration everywhere, that gives the same caps on every card of the group).
 */
const addParity = (
  merger: Merger,
  places: ReadonlyArray<Ruleset.CompiledRule>,
  networks: ReadonlyArray<Ruleset.Versions>,
  s: Situation
) => {
  const others = new Set<string>()
  for (const versions of networks) {
    const rule = Ruleset.inForce(versions, s.day)
    if (rule === undefined || !governs(rule.rule, s)) continue
    for (const name of rule.rule.networks) if (name !== s.network) others.add(name)
  }
  for (const network of others) {
    const other: Situation = { ...s, network, scheme: IssuingOf.schemeOf(network) }
    for (const place of places) merger.addThrough(place.rule, termsFor(place, other))
    for (const rule of selectNetworks(networks, other)) {
      merger.addThrough(rule.rule, termsFor(rule, other))
    }
  }
}

/**
 * Clauses resolved per payment shape. A policy is rebuilt whenever a request's date leaves its
 * validity window, and resolving is the costly part of a build; the shapes a rule is asked about
 * are few, and resolved terms are never mutated, so they are shared.
 */
const resolvedByClauses = new WeakMap<ReadonlyArray<Clause>, Map<string, Clauses.Resolved>>()

/** A rule's terms in this situation: its clauses resolved, or its precomputed variant. */
const termsFor = (rule: Ruleset.CompiledRule, s: Situation): Clauses.Resolved => {
  const clauses = rule.rule.clauses
  if (clauses !== undefined) {
    const feeType = s.convenienceFee ? "convenience_fee" : "surcharge"
    const key = `${s.scheme}|${s.business}|${s.issuing}|${s.cardType}|${s.channel}|${feeType}|${s.network}|${amountKey(clauses, s.amount)}|${s.merchantCategory}`
    let byShape = resolvedByClauses.get(clauses)
    if (byShape === undefined) {
      byShape = new Map()
      resolvedByClauses.set(clauses, byShape)
    }
    const hit = byShape.get(key)
    if (hit !== undefined) return hit
    // Network names come from requests: bound the memo rather than let it grow with them.
    if (byShape.size > 1_000) byShape.clear()
    const resolved = Clauses.resolve(clauses, {
      scheme: s.scheme,
      commercial: s.business,
      issuing: s.issuing,
      cardType: s.cardType,
      channel: s.channel,
      network: s.network,
      feeType,
      amount: s.amount,
      merchantCategory: s.merchantCategory
    })
    byShape.set(key, resolved)
    return resolved
  }
  const terms = rule.terms[Ruleset.variant(s.business, s.convenienceFee)]!
  return { terms, elections: terms.alternatives ? [terms.alternatives] : [] }
}

/** Which of the clauses' amount ranges the amount is in: the part of the amount a resolution reads. */
const amountKey = (clauses: ReadonlyArray<Clause>, amount: Clauses.Amount | undefined): string => {
  if (amount === undefined) return ""
  let key = ""
  for (const c of clauses) {
    if (c.scope.amount !== undefined) key += Clauses.side(c.scope.amount, amount)
  }
  return key
}

const governs = (rule: Rule, s: Situation): boolean =>
  rule.feeTypes.includes(s.convenienceFee ? "convenience_fee" : "surcharge")

/** The network rules for the card's network, or all of them (the strictest) when it is unknown. */
const selectNetworks = (
  all: ReadonlyArray<Ruleset.Versions>,
  s: Situation
): ReadonlyArray<Ruleset.CompiledRule> => {
  const inForce = all
    .map((versions) => Ruleset.inForce(versions, s.day))
    .filter((r): r is Ruleset.CompiledRule => r !== undefined && governs(r.rule, s))
  const own = inForce.filter((r) => r.rule.networks.includes(s.network))
  return own.length > 0 ? own : inForce
}

const cardBits = (types: ReadonlyArray<CardType>): number =>
  types.reduce((bits, t) => bits | CARD_BIT[t], 0)

const NONE: Bound = { value: Number.POSITIVE_INFINITY, by: undefined }

/** A rule's stand-in when it binds through parity (one per rule, so policies agree on it). */
const parityCopies = new WeakMap<Rule, Rule>()

class Merger {
  missing: string | undefined
  /** The first rule read whose terms ask for network parity. */
  parityBy: Rule | undefined
  private readonly throughParity = new Set<Rule>()
  private readonly amountScopes: Array<AmountRange> = []
  private validFrom = Number.NEGATIVE_INFINITY
  private validUntil = Number.POSITIVE_INFINITY
  private readonly rules: Array<string> = []
  private place: Rule | undefined
  private prohibitedBy: Rule | undefined
  private uncertainBy: Rule | undefined
  private cardholderBy: Rule | undefined
  private channelBy: Rule | undefined
  private recurringBy: Rule | undefined
  private flatOnlyBy: Rule | undefined
  private standardChannelBy: Rule | undefined
  private readonly elections: Array<Election> = []
  private cardTypes: Bound = { value: 7, by: undefined }
  private legalCap = NONE
  private networkCap = NONE
  private flatCap = NONE
  private costOfAcceptanceBy: Rule | undefined
  private disclosureBy: Rule | undefined
  private disclosureText: string | null = null

  constructor(private readonly s: Situation) {}

  /** Narrows the policy's validity to the days on which the same version of this code is in force. */
  watch(versions: Ruleset.Versions) {
    const day = this.s.day
    for (const v of versions) {
      if (v.fromDay > day) this.validUntil = Math.min(this.validUntil, v.fromDay)
      else if (v.untilDay <= day) this.validFrom = Math.max(this.validFrom, v.untilDay)
      else {
        this.validFrom = Math.max(this.validFrom, v.fromDay)
        this.validUntil = Math.min(this.validUntil, v.untilDay)
      }
    }
  }

  addPlace(rule: Rule, resolved: Clauses.Resolved) {
    this.place = rule
    this.add(rule, resolved)
  }

  add(rule: Rule, resolved: Clauses.Resolved) {
    if (resolved.terms.networkParity === true) this.parityBy ??= rule
    this.merge(rule, resolved, false)
  }

  /**
   * Another network's card's rule (or the place's law for that card), binding this card through
   * the parity rule: merged as a copy of the rule, so a limit it sets is known to come through
   * parity even where the same rule also applies directly with looser terms.
   */
  addThrough(rule: Rule, resolved: Clauses.Resolved) {
    let copy = parityCopies.get(rule)
    if (copy === undefined) {
      copy = { ...rule }
      parityCopies.set(rule, copy)
    }
    this.throughParity.add(copy)
    this.merge(copy, resolved, true)
  }

  private merge(rule: Rule, { terms: t, elections }: Clauses.Resolved, through: boolean) {
    if (!this.rules.includes(rule.code)) this.rules.push(rule.code)
    for (const clause of rule.clauses ?? []) {
      const range = clause.scope.amount
      if (range !== undefined && !this.amountScopes.includes(range)) this.amountScopes.push(range)
    }
    if (t.status === "prohibited") this.prohibitedBy ??= rule
    if (t.status === "uncertain") this.uncertainBy ??= rule
    if (!t.cardholders.includes(this.s.business ? "business" : "consumer"))
      this.cardholderBy ??= rule
    if (!t.channels.includes(this.s.channel)) this.channelBy ??= rule
    const bits = this.cardTypes.value & cardBits(t.cardTypes)
    if (bits !== this.cardTypes.value) this.cardTypes = { value: bits, by: rule }
    if (t.flatOnly) this.flatOnlyBy ??= rule
    if (!t.recurringAllowed) this.recurringBy ??= rule
    const percent =
      t.maxPercentage === null ? Number.POSITIVE_INFINITY : Math.round(t.maxPercentage * 10_000)
    if (rule.kind === "place") this.legalCap = lower(this.legalCap, percent, rule)
    else this.networkCap = lower(this.networkCap, percent, rule)
    const flat = t.maxFlatFee === null ? Number.POSITIVE_INFINITY : Math.round(t.maxFlatFee * 1000)
    this.flatCap = lower(this.flatCap, flat, rule)
    if (t.costOfAcceptanceCap) this.costOfAcceptanceBy ??= rule
    if (t.requiresDisclosure) this.disclosureBy ??= rule
    const text = t.disclosureText ?? rule.disclosureText
    // The notice is this card's: another network's card, read for parity, does not set it.
    if (!through && text !== null && (rule.kind !== "network" || t.flatOnly))
      this.disclosureText = text
    if (t.standardChannelOnly === true && this.s.standardChannel === this.s.channel) {
      this.standardChannelBy ??= rule
    }
    for (const limits of elections) this.elect(rule, limits)
  }

  /** An election's flat caps bind as the loosest of them (no request changes them); its rates per request. */
  private elect(rule: Rule, limits: ReadonlyArray<Limit>) {
    const inEngineUnits = limits.map((l) => ({
      ppm:
        l.maxPercentage === null ? Number.POSITIVE_INFINITY : Math.round(l.maxPercentage * 10_000),
      flat: l.maxFlatFee === null ? Number.POSITIVE_INFINITY : Math.round(l.maxFlatFee * 1000),
      costOfAcceptance: l.costOfAcceptanceCap
    }))
    this.elections.push({ limits: inEngineUnits, by: rule })
    this.flatCap = lower(this.flatCap, Math.max(...inEngineUnits.map((l) => l.flat)), rule)
  }

  result(): Policy {
    return {
      day: this.s.day,
      validFrom: this.validFrom,
      validUntil: this.validUntil,
      rules: this.rules,
      place: this.place,
      missing: this.missing,
      prohibitedBy: this.prohibitedBy,
      uncertainBy: this.uncertainBy,
      cardholderBy: this.cardholderBy,
      channelBy: this.channelBy,
      recurringBy: this.recurringBy,
      flatOnlyBy: this.flatOnlyBy,
      standardChannelBy: this.standardChannelBy,
      elections: this.elections,
      cardTypes: this.cardTypes,
      legalCap: this.legalCap,
      networkCap: this.networkCap,
      cap:
        this.legalCap.value <= this.networkCap.value
          ? { value: this.legalCap.value, code: "percentage_over_limit", by: this.legalCap.by }
          : { value: this.networkCap.value, code: "network_cap_exceeded", by: this.networkCap.by },
      flatCap: this.flatCap,
      costOfAcceptanceBy: this.costOfAcceptanceBy,
      disclosureBy: this.disclosureBy,
      disclosureText: this.disclosureText,
      situation: this.s,
      amountScopes: this.amountScopes,
      parityBy: this.parityBy,
      throughParity: this.throughParity,
      texts: new Map(),
      capFailure: undefined,
      open:
        this.prohibitedBy === undefined &&
        this.cardholderBy === undefined &&
        this.channelBy === undefined &&
        this.recurringBy === undefined &&
        this.flatOnlyBy === undefined &&
        this.standardChannelBy === undefined &&
        this.missing === undefined &&
        this.uncertainBy === undefined
    }
  }
}

const lower = (bound: Bound, value: number, rule: Rule): Bound =>
  value < bound.value ? { value, by: rule } : bound
