/**
 * The typed rule model every compliance answer is computed from. One record of law
 * (a place), of a card network, or of a sales channel; the engine reads only these
 * fields, never a region code.
 */
import { Schema } from "effect"
import * as Day from "./Day.js"

/** Card types a fee may be charged on. */
export const CardType = Schema.Literal("credit", "debit", "prepaid")
export type CardType = typeof CardType.Type

/** Who holds the card. */
export const Cardholder = Schema.Literal("consumer", "business")
export type Cardholder = typeof Cardholder.Type

/** Where the payment is made. */
export const Channel = Schema.Literal("online", "in_person")
export type Channel = typeof Channel.Type

/** A surcharge (percentage allowed) or a convenience fee (flat, card-absent channel). */
export const FeeType = Schema.Literal("surcharge", "convenience_fee")
export type FeeType = typeof FeeType.Type

/** What the law says, once normalised from the dataset's thirteen status words. */
export const RuleStatus = Schema.Literal("permitted", "prohibited", "uncertain")
export type RuleStatus = typeof RuleStatus.Type

/** Law of a place, a card network's rule on top of it, or a channel-specific rule. */
export const RuleKind = Schema.Literal("place", "network", "channel")
export type RuleKind = typeof RuleKind.Type

/** The kind of card scheme: interchange-regulated four-party, three-party (Amex, Diners), or a national debit scheme (eftpos, Interac). */
export const Scheme = Schema.Literal("four_party", "three_party", "national_debit")
export type Scheme = typeof Scheme.Type

/** Where the card was issued, seen from the place of the payment (`same_area`: both in the EEA). */
export const Issuing = Schema.Literal("domestic", "same_area", "foreign")
export type Issuing = typeof Issuing.Type

/** How sure the research is. */
export const Confidence = Schema.Literal("high", "medium", "low")
export type Confidence = typeof Confidence.Type

const Percent = Schema.Number.pipe(Schema.between(0, 100))
/** A real calendar day: "2025-02-30" matches the pattern but would be read as 1970-01-01. */
const IsoDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/),
  Schema.filter((text) => Day.fromIso(text) !== undefined, { message: () => "not a calendar date" })
)

/** Limits that bind together: one of the alternatives a law lets the merchant elect. */
export const Limit = Schema.Struct({
  maxPercentage: Schema.NullOr(Percent),
  maxFlatFee: Schema.NullOr(Schema.Number.pipe(Schema.nonNegative())),
  costOfAcceptanceCap: Schema.Boolean
})
export type Limit = typeof Limit.Type

/** The limits a rule puts on a fee. */
export const Terms = Schema.Struct({
  status: RuleStatus,
  /** Card types a fee may be charged on; empty means none. */
  cardTypes: Schema.Array(CardType),
  /** Cardholders a fee may be charged to. */
  cardholders: Schema.Array(Cardholder),
  /** Channels a fee may be charged in. */
  channels: Schema.Array(Channel),
  /** Cap on the effective rate `fee / amount`, percent; null for none. */
  maxPercentage: Schema.NullOr(Percent),
  /** Cap on the flat part, major units of the rule's currency; null for none. */
  maxFlatFee: Schema.NullOr(Schema.Number.pipe(Schema.nonNegative())),
  /** The fee must also not exceed the merchant's cost of acceptance. */
  costOfAcceptanceCap: Schema.Boolean,
  /** The fee must be a flat amount, whatever the payment's value. */
  flatOnly: Schema.Boolean,
  /** A fee may be charged on recurring or instalment payments. */
  recurringAllowed: Schema.Boolean,
  requiresDisclosure: Schema.Boolean,
  /**
   * The law lets the merchant elect any one of these limits ("at most 2 %, or at most the
   * merchant discount fee"); when set, the caps above are not read. Absent or null: none.
   */
  alternatives: Schema.optional(Schema.NullOr(Schema.Array(Limit).pipe(Schema.minItems(1)))),
  /**
   * Network parity: the fee may be no higher than the same account's fee on a comparable card
   * of every other network the place has a rule for (see Policy: those networks' rules, and the
   * place's law for their scheme, bind this card too).
   */
  networkParity: Schema.optional(Schema.Boolean),
  /** Only outside the merchant's standard payment channel (card networks' convenience fees). */
  standardChannelOnly: Schema.optional(Schema.Boolean),
  /** Disclosure wording for this part of the rule, over the rule's own. */
  disclosureText: Schema.optional(Schema.NullOr(Schema.String))
})
export type Terms = typeof Terms.Type

/**
 * Transaction amounts a clause applies to, both ends inclusive, in minor units of `currency`
 * (lower-case ISO 4217). A payment in another currency or of unknown amount is not known to be in it.
 */
export const AmountRange = Schema.Struct({
  currency: Schema.String.pipe(Schema.pattern(/^[a-z]{3}$/)),
  min: Schema.NullOr(Schema.Int.pipe(Schema.nonNegative())),
  max: Schema.NullOr(Schema.Int.pipe(Schema.nonNegative()))
})
export type AmountRange = typeof AmountRange.Type

/**
 * A merchant category code (ISO 18245, the four digits an acquirer assigns a merchant: 9311 tax
 * payments, 4121 taxicabs). Laws that exempt or single out a kind of merchant are scoped by it.
 * The research records' schema (`@levy/rules` Research.MerchantCategoryCode) says the same; it
 * is not imported here because the browser client's bundle would then carry the whole research
 * schema and its host lists (the consumer test's size budget).
 */
export const MerchantCategoryCode = Schema.String.pipe(
  Schema.pattern(/^\d{4}$/, { message: () => 'a merchant category code: four digits, e.g. "9311"' })
)

/** The payments a clause applies to; a missing field means any. */
export const Scope = Schema.Struct({
  schemes: Schema.optional(Schema.Array(Scheme)),
  cardCategories: Schema.optional(Schema.Array(Schema.Literal("consumer", "commercial"))),
  issuing: Schema.optional(Schema.Array(Issuing)),
  cardTypes: Schema.optional(Schema.Array(CardType)),
  channels: Schema.optional(Schema.Array(Channel)),
  networks: Schema.optional(Schema.Array(Schema.String)),
  feeTypes: Schema.optional(Schema.Array(FeeType)),
  amount: Schema.optional(AmountRange),
  /** The merchant's category codes (the account's `merchantCategoryCode`). */
  merchantCategories: Schema.optional(Schema.Array(MerchantCategoryCode))
})
export type Scope = typeof Scope.Type

/** Terms for the payments in a scope: of the clauses that match a payment, the most specific decides. */
export const Clause = Schema.Struct({ scope: Scope, terms: Terms })
export type Clause = typeof Clause.Type

/** A source as the research read it: where, what kind, and the passage the rule rests on. */
export const Citation = Schema.Struct({
  url: Schema.String,
  title: Schema.String,
  kind: Schema.Literal("statute", "regulator", "network", "secondary"),
  quote: Schema.String
})
export type Citation = typeof Citation.Type

/** One rule, as shipped in the ruleset or supplied by an account. */
export const Rule = Schema.Struct({
  ...Terms.fields,
  /** `CC`, `CC-SS`, or a network/channel rule's own code (`US-NETWORK-VISA`). */
  code: Schema.String.pipe(Schema.pattern(/^[A-Z]{2}(-[A-Z0-9-]{1,40})?$/)),
  kind: RuleKind,
  country: Schema.String.pipe(Schema.pattern(/^[A-Z]{2}$/)),
  /** Subdivision name for a `CC-SS` place. */
  state: Schema.NullOr(Schema.String),
  /** Lower-case currency code of the place; `maxFlatFee` is in it. */
  currency: Schema.String,
  /** Network rules: the networks they govern. */
  networks: Schema.Array(Schema.String),
  /** Network and channel rules: the fee types they govern. */
  feeTypes: Schema.Array(FeeType),
  /** Channel rules: the channel they govern. */
  channel: Schema.NullOr(Channel),
  /** Different terms when the cardholder is a business (EU/UK commercial cards). */
  business: Schema.NullOr(Schema.partialWith(Terms, { exact: true })),
  /** Different terms for a convenience fee rather than a surcharge. */
  convenienceFee: Schema.NullOr(Schema.partialWith(Terms, { exact: true })),
  /** First day in force; null when the dataset gives none. Later versions of a code replace earlier ones. */
  effectiveFrom: Schema.NullOr(IsoDate),
  /** First day no longer in force (exclusive); absent or null: until the next version. */
  effectiveUntil: Schema.optional(Schema.NullOr(IsoDate)),
  /**
   * Scoped terms (scheme, card category, issuing region, card type, channel, network, fee
   * type, amount, merchant category). When present they decide alone: a payment no clause matches is uncertain.
   */
  clauses: Schema.optional(Schema.Array(Clause)),
  /** The dataset's own status word, kept for reference. */
  sourceStatus: Schema.String,
  /** Free-text summary of the law the terms were read from. */
  restrictions: Schema.String,
  disclosureText: Schema.NullOr(Schema.String),
  sources: Schema.Array(Schema.String),
  /** The sources with their kind and the quoted passage (research records). */
  citations: Schema.optional(Schema.Array(Citation)),
  confidence: Confidence,
  currentAsOf: Schema.NullOr(Schema.String)
})
export type Rule = typeof Rule.Type
