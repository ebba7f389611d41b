/**
 * A rule's scoped clauses resolved for one payment. Of the clauses whose scope matches, the
 * most specific (most scope fields) decides; a payment no clause matches is uncertain. Where
 * the payment leaves a dimension unknown (the card's scheme, issuing region, network, card
 * type or amount), every value it could take is tried and the strictest answer binds, as an unknown
 * network does for network rules (docs/design.md §3). The merchant's category is not such a
 * dimension: it is the account's own fact, and a merchant that states none is of no category a
 * clause names, so a law for one kind of merchant (an exemption, a sector's ban) does not apply.
 */
import type {
  AmountRange,
  CardType,
  Channel,
  Clause,
  FeeType,
  Issuing,
  Limit,
  RuleStatus,
  Scheme,
  Scope,
  Terms
} from "./Rule.js"

/** The payment as far as it is known. */
export interface Payment {
  readonly scheme: Scheme | undefined
  readonly commercial: boolean
  readonly issuing: Issuing | undefined
  readonly cardType: CardType | undefined
  readonly channel: Channel
  /** Lower-case network name; "" when unknown. */
  readonly network: string
  readonly feeType: FeeType
  /** The transaction amount in minor units of its (lower-case) currency; undefined when unknown. */
  readonly amount: Amount | undefined
  /** The merchant's category code (ISO 18245); undefined when the account states none (no clause scoped by category matches). */
  readonly merchantCategory: string | undefined
}

/** A transaction amount: minor units of a lower-case currency code. */
export interface Amount {
  readonly minor: number
  readonly currency: string
}

/** Terms with every election the rule makes (each a set of limits, any one of which suffices). */
export interface Resolved {
  readonly terms: Terms
  readonly elections: ReadonlyArray<ReadonlyArray<Limit>>
}

const SCHEMES: ReadonlyArray<Scheme> = ["four_party", "three_party", "national_debit"]
const ISSUING: ReadonlyArray<Issuing> = ["domestic", "same_area", "foreign"]
const CARD_TYPES: ReadonlyArray<CardType> = ["credit", "debit", "prepaid"]
/** A network no clause names. */
const OTHER_NETWORK = "(other)"

/** The terms of a payment no clause matches (and the base of any terms built by hand). */
export const UNCERTAIN: Terms = {
  status: "uncertain",
  cardTypes: CARD_TYPES,
  cardholders: ["consumer", "business"],
  channels: ["online", "in_person"],
  maxPercentage: null,
  maxFlatFee: null,
  costOfAcceptanceCap: false,
  flatOnly: false,
  recurringAllowed: true,
  requiresDisclosure: false
}

/** The clauses' terms for a payment. */
export const resolve = (clauses: ReadonlyArray<Clause>, p: Payment): Resolved => {
  const perCard = CARD_TYPES.map((cardType) => strictestOver(clauses, { ...p, cardType }))
  const allowed = CARD_TYPES.filter((_, i) => perCard[i]!.terms.status !== "prohibited")
  if (allowed.length === 0) return { terms: { ...perCard[0]!.terms, cardTypes: [] }, elections: [] }
  // The card's own terms when its type is known and allowed; else the strictest of the allowed.
  const own = p.cardType === undefined ? undefined : perCard[CARD_TYPES.indexOf(p.cardType)]
  const binding =
    own !== undefined && own.terms.status !== "prohibited"
      ? own
      : allowed.map((t) => perCard[CARD_TYPES.indexOf(t)]!).reduce(stricter)
  return { terms: { ...binding.terms, cardTypes: allowed }, elections: binding.elections }
}

/** The strictest terms over every value the payment's unknown dimensions could take. */
const strictestOver = (clauses: ReadonlyArray<Clause>, p: Payment): Resolved => {
  const mentions = (field: keyof Scope) => clauses.some((c) => c.scope[field] !== undefined)
  const schemes = p.scheme !== undefined || !mentions("schemes") ? [p.scheme] : SCHEMES
  const issuings = p.issuing !== undefined || !mentions("issuing") ? [p.issuing] : ISSUING
  const networks =
    p.network !== "" || !mentions("networks")
      ? [p.network]
      : [...new Set(clauses.flatMap((c) => c.scope.networks ?? [])), OTHER_NETWORK]
  const amounts =
    !mentions("amount") || knownIn(clauses, p.amount) ? [p.amount] : amountsOf(clauses)
  let found: Resolved | undefined
  for (const scheme of schemes)
    for (const issuing of issuings)
      for (const network of networks)
        for (const amount of amounts) {
          const terms = pick(clauses, { ...p, scheme, issuing, network, amount })
          const resolved = { terms, elections: terms.alternatives ? [terms.alternatives] : [] }
          found = found === undefined ? resolved : stricter(found, resolved)
        }
  return found!
}

/**
 * One amount from each stretch of amounts on which the clauses' ranges agree: each end of a
 * range and the amount just past it, and undefined (no range: an amount in another currency).
 */
const amountsOf = (clauses: ReadonlyArray<Clause>): ReadonlyArray<Amount | undefined> => {
  const found: Array<Amount | undefined> = [undefined]
  for (const { scope } of clauses) {
    const range = scope.amount
    if (range === undefined) continue
    const at = (minor: number) => found.push({ minor, currency: range.currency })
    if (range.min !== null) {
      at(range.min)
      if (range.min > 0) at(range.min - 1)
    }
    if (range.max !== null) {
      at(range.max)
      at(range.max + 1)
    }
  }
  return found
}

/** An amount known in the currency of every amount range of the clauses (else it is as good as unknown). */
const knownIn = (clauses: ReadonlyArray<Clause>, amount: Amount | undefined): boolean =>
  amount !== undefined &&
  clauses.every((c) => c.scope.amount === undefined || c.scope.amount.currency === amount.currency)

/**
 * Where an amount stands to a range, as a key: "1" in it, "0" outside it in its currency, "?"
 * unknown (no amount, or one in another currency). Equal keys over a rule's ranges resolve alike.
 */
export const side = (range: AmountRange, amount: Amount | undefined): string =>
  amount === undefined || amount.currency !== range.currency
    ? "?"
    : inRange(range, amount)
      ? "1"
      : "0"

/** Whether an amount is in a range: same currency, within both (inclusive) ends. */
export const inRange = (range: AmountRange, amount: Amount | undefined): boolean =>
  amount !== undefined &&
  amount.currency === range.currency &&
  (range.min === null || amount.minor >= range.min) &&
  (range.max === null || amount.minor <= range.max)

/** The most specific matching clause's terms (the first listed on a tie), or uncertain. */
const pick = (clauses: ReadonlyArray<Clause>, p: Payment): Terms => {
  let best: Clause | undefined
  let bestSpecificity = -1
  for (const clause of clauses) {
    if (!matches(clause.scope, p)) continue
    const specificity = Object.values(clause.scope).filter((v) => v !== undefined).length
    if (specificity > bestSpecificity) {
      best = clause
      bestSpecificity = specificity
    }
  }
  return best?.terms ?? UNCERTAIN
}

const matches = (s: Scope, p: Payment): boolean =>
  within(s.schemes, p.scheme) &&
  within(s.cardCategories, p.commercial ? "commercial" : "consumer") &&
  within(s.issuing, p.issuing) &&
  within(s.cardTypes, p.cardType) &&
  within(s.channels, p.channel) &&
  within(s.networks, p.network) &&
  within(s.feeTypes, p.feeType) &&
  (s.amount === undefined || inRange(s.amount, p.amount)) &&
  within(s.merchantCategories, p.merchantCategory)

/** A scope field admits a value; an unknown value is only admitted by a field that admits any. */
const within = <A>(allowed: ReadonlyArray<A> | undefined, value: A | undefined): boolean =>
  allowed === undefined || (value !== undefined && allowed.includes(value))

const STATUS_ORDER: Readonly<Record<RuleStatus, number>> = {
  permitted: 0,
  uncertain: 1,
  prohibited: 2
}

const minCap = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b)

/** Both sets of terms at once: the stricter of each limit, every election of either. */
export const stricter = (a: Resolved, b: Resolved): Resolved => {
  const x = a.terms
  const y = b.terms
  return {
    terms: {
      status: STATUS_ORDER[x.status] >= STATUS_ORDER[y.status] ? x.status : y.status,
      cardTypes: x.cardTypes.filter((t) => y.cardTypes.includes(t)),
      cardholders: x.cardholders.filter((t) => y.cardholders.includes(t)),
      channels: x.channels.filter((t) => y.channels.includes(t)),
      maxPercentage: minCap(x.maxPercentage, y.maxPercentage),
      maxFlatFee: minCap(x.maxFlatFee, y.maxFlatFee),
      costOfAcceptanceCap: x.costOfAcceptanceCap || y.costOfAcceptanceCap,
      flatOnly: x.flatOnly || y.flatOnly,
      recurringAllowed: x.recurringAllowed && y.recurringAllowed,
      requiresDisclosure: x.requiresDisclosure || y.requiresDisclosure,
      standardChannelOnly: (x.standardChannelOnly ?? false) || (y.standardChannelOnly ?? false),
      ...(x.networkParity === true || y.networkParity === true ? { networkParity: true } : {}),
      disclosureText: x.disclosureText ?? y.disclosureText ?? null
    },
    elections: a.elections === b.elections ? a.elections : union(a.elections, b.elections)
  }
}

const union = <A>(a: ReadonlyArray<A>, b: ReadonlyArray<A>): ReadonlyArray<A> => [
  ...a,
  ...b.filter((x) => !a.includes(x))
]
