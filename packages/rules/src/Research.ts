/**
 * The research record of one jurisdiction (`research/<CODE>.json`), as the research and the
 * rule model agree on it: dated versions that tile time, each with scoped rules and sources.
 * The schema checks the shape; `problems` checks what a schema cannot (tiling, codes, caps).
 */
import { Either, ParseResult, Schema } from "effect"
import * as Sourcing from "./Sourcing.js"

const IsoDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/),
  Schema.filter((text) => isCalendarDate(text), { message: () => "not a calendar date" })
)

/** A decimal written as text ("3", "1.5"): money and percentages are never floats. */
const decimalText = (decimals: number) =>
  Schema.String.pipe(
    Schema.pattern(new RegExp(`^\\d{1,9}(\\.\\d{1,${decimals}})?$`), {
      message: () => `a decimal as a string with at most ${decimals} decimals, e.g. "3" or "1.5"`
    })
  )

/** Percent of the base amount, to 4 decimals (the engine's parts per million). */
const PercentText = decimalText(4).pipe(
  Schema.filter((text) => Number(text) <= 100, { message: () => "a percentage of at most 100" })
)

/** Major units of the record's currency, to 3 decimals (three-decimal currencies). */
const MoneyText = decimalText(3)

export const Scheme = Schema.Literal("four_party", "three_party", "national_debit")
export type Scheme = typeof Scheme.Type

export const CardCategory = Schema.Literal("consumer", "commercial")
export type CardCategory = typeof CardCategory.Type

/** Where the card was issued, seen from the place of the payment. */
export const Issuing = Schema.Literal("domestic", "same_area", "foreign")
export type Issuing = typeof Issuing.Type

const CardType = Schema.Literal("credit", "debit", "prepaid")
const Channel = Schema.Literal("online", "in_person")
const FeeType = Schema.Literal("surcharge", "convenience_fee")

/** Minor units of the range's currency: integers, never a float (cents for usd, yen for jpy). */
const Minor = Schema.Int.pipe(Schema.nonNegative())

/**
 * Transaction amounts a rule applies to, both ends inclusive, in minor units of `currency`
 * (Utah's "a transaction for $10,000 or less": `{ currency: "usd", min: null, max: 1000000 }`).
 * A payment in another currency, or of an unknown amount, is not known to be in the range:
 * the engine then takes the strictest of the terms inside and outside it.
 */
export const AmountRange = Schema.Struct({
  currency: Schema.String.pipe(Schema.pattern(/^[a-z]{3}$/)),
  min: Schema.NullOr(Minor),
  max: Schema.NullOr(Minor)
})
export type AmountRange = typeof AmountRange.Type

/** A merchant category code (ISO 18245): four digits, e.g. 9311 for tax payments. */
export const MerchantCategoryCode = Schema.String.pipe(
  Schema.pattern(/^\d{4}$/, { message: () => 'a merchant category code: four digits, e.g. "9311"' })
)

/** The payments a rule applies to; a missing field means any. */
export const Scope = Schema.Struct({
  schemes: Schema.optional(Schema.Array(Scheme)),
  cardCategories: Schema.optional(Schema.Array(CardCategory)),
  issuing: Schema.optional(Schema.Array(Issuing)),
  cardTypes: Schema.optional(Schema.Array(CardType)),
  channels: Schema.optional(Schema.Array(Channel)),
  networks: Schema.optional(Schema.Array(Schema.String.pipe(Schema.pattern(/^[a-z0-9_]+$/)))),
  feeTypes: Schema.optional(Schema.Array(FeeType)),
  amount: Schema.optional(AmountRange),
  /** Merchants whose category code (ISO 18245) is one of these: a law for one kind of merchant. */
  merchantCategories: Schema.optional(Schema.NonEmptyArray(MerchantCategoryCode))
})
export type Scope = typeof Scope.Type

/** Limits that bind together. */
export const Limit = Schema.Struct({
  maxPercentage: Schema.NullOr(PercentText),
  maxFlatFee: Schema.NullOr(MoneyText),
  costOfAcceptance: Schema.Boolean
})
export type Limit = typeof Limit.Type

export const Status = Schema.Literal("permitted", "prohibited", "uncertain")
export const Confidence = Schema.Literal("high", "medium", "low")

export const ResearchRule = Schema.Struct({
  scope: Scope,
  status: Status,
  limit: Schema.NullOr(Limit),
  /** The merchant may elect any one of these; when set, `limit` is ignored. */
  alternatives: Schema.NullOr(Schema.Array(Limit).pipe(Schema.minItems(1))),
  standardChannelOnly: Schema.Boolean,
  /**
   * The channels the rule lets a fee be charged in, as a condition of the fee (Visa's
   * convenience fee: "card-absent transactions only"); absent: any. A payment in another
   * channel is refused as outside the fee's channel, not as a prohibited fee: where the law
   * itself differs by channel (NZ's in-store ban), scope the rules by channel instead.
   */
  allowedChannels: Schema.optional(Schema.Array(Channel).pipe(Schema.minItems(1))),
  /** The fee must be a flat amount, whatever the payment's value; absent: false. */
  flatOnly: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  /**
   * Network parity: a fee on this card may be no higher than the fee the same account charges
   * on a comparable card (same card type, cardholder, channel, issuing region and amount) of
   * each other network the place has a rule for (American Express: "not higher than any
   * surcharge imposed on ... any other Credit Card"); absent: false.
   */
  networkParity: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  /** A fee may be charged on recurring or instalment payments; absent: true. */
  recurringAllowed: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  requiresDisclosure: Schema.Boolean,
  disclosureText: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  notes: Schema.String
})
export type ResearchRule = typeof ResearchRule.Type

export const Source = Schema.Struct({
  url: Schema.String.pipe(Schema.pattern(/^https?:\/\/\S+$/)),
  title: Schema.String,
  kind: Schema.Literal("statute", "regulator", "network", "secondary"),
  quote: Schema.String.pipe(Schema.maxLength(300))
})
export type Source = typeof Source.Type

export const Version = Schema.Struct({
  effectiveFrom: IsoDate,
  effectiveUntil: Schema.NullOr(IsoDate),
  confidence: Confidence,
  rules: Schema.Array(ResearchRule).pipe(Schema.minItems(1)),
  sources: Schema.Array(Source).pipe(Schema.minItems(1)),
  notes: Schema.String
})
export type Version = typeof Version.Type

export const Record = Schema.Struct({
  code: Schema.String.pipe(Schema.pattern(/^[A-Z]{2}(-[A-Z0-9-]{1,40})?$/)),
  kind: Schema.Literal("place", "network", "channel"),
  name: Schema.String,
  currency: Schema.String.pipe(Schema.pattern(/^[a-z]{3}$/)),
  checkedOn: IsoDate,
  versions: Schema.Array(Version).pipe(Schema.minItems(1))
})
export type Record = typeof Record.Type

/** What a schema cannot see: versions that do not tile, a code that is not its file's name. */
export const problems = (record: Record, fileCode?: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  if (fileCode !== undefined && fileCode !== record.code) {
    found.push(`code ${record.code} is not the file's name ${fileCode}.json`)
  }
  record.versions.forEach((v, i) => {
    v.rules.forEach((rule, r) => {
      found.push(...amountProblems(rule.scope.amount, `versions[${i}].rules[${r}]`))
    })
    const next = record.versions[i + 1]
    const at = `versions[${i}] (${v.effectiveFrom})`
    if (v.effectiveUntil !== null && v.effectiveUntil <= v.effectiveFrom) {
      found.push(`${at}: effectiveUntil ${v.effectiveUntil} is not after effectiveFrom`)
    }
    if (next === undefined && v.effectiveUntil !== null) {
      found.push(`${at}: the last version must be open-ended (effectiveUntil null)`)
    }
    if (next !== undefined && v.effectiveUntil !== next.effectiveFrom) {
      found.push(
        `${at}: effectiveUntil ${v.effectiveUntil} must equal the next version's effectiveFrom ${next.effectiveFrom}`
      )
    }
  })
  found.push(...Sourcing.problems(record))
  return found
}

/** An amount range that bounds nothing, or whose ends are the wrong way round. */
const amountProblems = (range: AmountRange | undefined, at: string): ReadonlyArray<string> => {
  if (range === undefined) return []
  if (range.min === null && range.max === null) return [`${at}: an amount range needs min or max`]
  if (range.min !== null && range.max !== null && range.min > range.max) {
    return [`${at}: amount min ${range.min} is above max ${range.max}`]
  }
  return []
}

/** A research record from untrusted JSON, or every reason it is not one. */
export const decode = (json: unknown, fileCode?: string): Either.Either<Record, string> => {
  const decoded = Schema.decodeUnknownEither(Record, { errors: "all" })(json)
  if (Either.isLeft(decoded)) {
    return Either.left(ParseResult.TreeFormatter.formatErrorSync(decoded.left))
  }
  const found = problems(decoded.right, fileCode)
  return found.length === 0 ? Either.right(decoded.right) : Either.left(found.join("\n"))
}

function isCalendarDate(text: string): boolean {
  const [y, m, d] = text.split("-").map(Number) as [number, number, number]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}
