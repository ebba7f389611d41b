/**
 * Wire field schemas every model shares: money in minor units, Unix timestamps, currency
 * and region codes, prefixed ids, and the card and payer vocabulary of the engine.
 */
import { Day, type FeeSchedule, Rate, type Rounding, Rule } from "@levy/core"
import { Either, Schema, type SchemaAST } from "effect"

/** The literals `values`, whose decode failure reads "must be one of a, b, c". */
export const oneOf = <
  const Literals extends readonly [SchemaAST.LiteralValue, ...Array<SchemaAST.LiteralValue>]
>(
  ...values: Literals
): Schema.Literal<[...Literals]> =>
  Schema.Literal(...values).annotations({
    message: () => ({ message: `must be one of ${values.join(", ")}`, override: true })
  })

const overriding = (message: string) => () => ({ message, override: true })

/** An amount in the currency's minor unit (cents), never negative. */
export const MinorUnits = Schema.Int.pipe(Schema.nonNegative()).annotations({
  description: "Integer amount in the currency's smallest unit (e.g. cents).",
  message: overriding("must be a non-negative integer of minor units (cents)")
})

/** A signed amount in minor units (an adjustment). */
export const SignedMinorUnits = Schema.Int.annotations({
  description: "Signed integer amount in the currency's smallest unit."
})

/** A Unix timestamp in seconds. */
export const Timestamp = Schema.Int.pipe(Schema.nonNegative()).annotations({
  description: "Unix time in seconds."
})

/** A three-letter ISO 4217 code in either case, echoed exactly as sent. */
export const CurrencyCode = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z]{3}$/, { message: () => "must be a three-letter ISO currency code" })
).annotations({ description: "Three-letter ISO 4217 currency code, either case (usd, USD)." })

/** A region: a country (`US`) or an ISO 3166-2 subdivision (`US-NY`), either case. */
export const RegionCode = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/, {
    message: () => "must be a region code: a country (US) or a subdivision (US-NY)"
  })
).annotations({ description: "Region code: `CC` (country) or `CC-SS` (ISO 3166-2)." })

/** A percentage in percent units (2.9 means 2.9 %). */
export const Percent = Schema.Number.pipe(Schema.finite(), Schema.between(0, 100)).annotations({
  description: "Percent: 2.9 means 2.9 %.",
  message: overriding("must be a number of percent from 0 to 100")
})

/** A percentage rate as the engine takes it: 0 to 100 with at most 4 decimal places. */
export const PercentRate = Percent.pipe(
  Schema.filter((n) => Either.isRight(Rate.parsePercentage(n)), {
    message: () => "must have at most 4 decimal places"
  })
).annotations({ description: "Percent, at most 4 decimal places: 2.9 means 2.9 %." })

/** An amount in major units (0.30 means $0.30), as the specification's flatFee. */
export const MajorUnits = Schema.Number.pipe(Schema.finite(), Schema.nonNegative()).annotations({
  description: "Amount in major units: 0.30 means $0.30.",
  message: overriding("must be a non-negative number of major units (0.30 for $0.30)")
})

/** A flat fee as the engine takes it: major units with at most 3 decimal places. */
export const FlatFeeRate = MajorUnits.pipe(
  Schema.filter((n) => Either.isRight(Rate.parseFlatFee(n)), {
    message: () => "must have at most the currency's decimal places (3 at most)"
  })
).annotations({ description: "Major units, e.g. 0.30 for $0.30." })

/** A request body that rejects fields it does not declare (docs/design.md §9), named `identifier`. */
export const closed = <Fields extends Schema.Struct.Fields>(
  struct: Schema.Struct<Fields>,
  identifier: string
): Schema.Struct<Fields> =>
  struct.annotations({ identifier, parseOptions: { onExcessProperty: "error" } })

/** An ISO calendar date, `YYYY-MM-DD`. */
export const IsoDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/, { message: () => "must be an ISO date (YYYY-MM-DD)" }),
  Schema.filter((text) => Day.fromIso(text) !== undefined, {
    message: () => "must be a calendar date (YYYY-MM-DD)"
  })
).annotations({ description: "ISO calendar date, YYYY-MM-DD." })

/** An id with a resource prefix, e.g. `ch_…`. */
export const PrefixedId = (prefix: string) =>
  Schema.String.pipe(
    Schema.pattern(new RegExp(`^${prefix}_[A-Za-z0-9]+$`), {
      message: () => `must be an id starting with ${prefix}_`
    })
  ).annotations({ description: `Identifier with the prefix \`${prefix}_\`.` })

/** Whether a record belongs to live mode (production keys) or test mode (development keys). */
export const Livemode = Schema.Boolean.annotations({
  description: "true for live mode (production keys), false for test mode (development keys)."
})

/** The card type a fee is charged on. */
export const CardType = oneOf(...Rule.CardType.literals)
export type CardType = typeof CardType.Type

/** Who holds the card (docs/design.md §3), default `consumer`. */
export const Cardholder = oneOf(...Rule.Cardholder.literals)
/** Where the payment is made, default `online`. */
export const Channel = oneOf(...Rule.Channel.literals)
/** A surcharge or a convenience fee, default `surcharge`. */
export const FeeType = oneOf(...Rule.FeeType.literals)
/** The kind of card scheme: `four_party`, `three_party` (Amex, Diners) or `national_debit` (eftpos, Interac). */
export const CardScheme = oneOf(...Rule.Scheme.literals)
/** An ISO 3166-1 alpha-2 country code, upper case. */
export const CountryCode = Schema.String.pipe(
  Schema.pattern(/^[A-Z]{2}$/, {
    message: () => "must be an ISO 3166-1 alpha-2 country code (US, DE)"
  })
)

/** A merchant category code (ISO 18245): the four digits an acquirer assigns a merchant. */
export const MerchantCategoryCode = Schema.String.pipe(
  Schema.pattern(/^\d{4}$/, {
    message: () => 'must be a merchant category code of four digits (ISO 18245), e.g. "9311"'
  })
)

/** How the percentage part of a fee is rounded (docs/design.md §2). */
export const RoundingMode = oneOf("half_up", "half_even", "up", "down")
export type RoundingMode = typeof RoundingMode.Type

/** `add_on`: fee on top of the base; `gross_up`: the merchant nets the base (docs/design.md §2). */
export const FeeModel = oneOf("add_on", "gross_up")
export type FeeModel = typeof FeeModel.Type

/** `direct`: base and fee in one processor transaction; `separate`: two (docs/design.md §4). */
export const BillingMode = oneOf("direct", "separate")
export type BillingMode = typeof BillingMode.Type

/** The card network (`visa`, `mastercard`, `amex`, `discover`, `interac`, ...). */
export const CardNetwork = Schema.String.pipe(
  Schema.pattern(/^[a-z][a-z0-9_]{0,39}$/, {
    message: () => "must be a lower-case card network name (visa, mastercard, ...)"
  })
).annotations({
  description: "Card network (visa, mastercard, amex, discover, interac, ...); unknown: strictest."
})

// The wire vocabulary must be the engine's: these fail to compile if core's types drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameRounding: Same<RoundingMode, Rounding.RoundingMode> = true
const sameModel: Same<FeeModel, FeeSchedule.FeeModel> = true
void sameRounding
void sameModel
