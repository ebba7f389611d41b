/**
 * Who pays, how and where (docs/design.md §3): the optional inputs beyond the specification's
 * `region` and `cardType` that estimates, charges and compliance checks accept.
 */
import { Schema } from "effect"
import {
  Cardholder,
  CardNetwork,
  CardScheme,
  Channel,
  CountryCode,
  FeeType,
  IsoDate,
  MerchantCategoryCode,
  Percent
} from "./Field.js"

/** The optional payer context, as fields to spread into a request struct. */
export const fields = {
  /** Card network; absent or unknown: the strictest network rule of the place. */
  cardNetwork: Schema.optional(CardNetwork),
  /** The merchant's real processing cost, percent. */
  costOfAcceptance: Schema.optional(
    Percent.annotations({ description: "The merchant's real processing cost, percent." })
  ),
  merchantCategoryCode: Schema.optional(
    MerchantCategoryCode.annotations({
      description:
        "The merchant's category code (ISO 18245), for laws that exempt or single out a kind of merchant (a government office, a taxi); absent: the account's (fee configuration), else none, so no such law applies."
    })
  ),
  cardholder: Schema.optional(
    Cardholder.annotations({ description: "`consumer` (default) or `business`." })
  ),
  cardScheme: Schema.optional(
    CardScheme.annotations({
      description:
        "`four_party`, `three_party` or `national_debit`; absent: read from cardNetwork, else the strictest."
    })
  ),
  cardIssuingCountry: Schema.optional(
    CountryCode.annotations({
      description:
        "Country that issued the card: domestic, same economic area (EEA) or foreign rules apply; absent: the strictest."
    })
  ),
  channel: Schema.optional(
    Channel.annotations({ description: "`online` (default) or `in_person`." })
  ),
  standardChannel: Schema.optional(
    Channel.annotations({
      description:
        "The merchant's standard payment channel: a card network's convenience fee is allowed only outside it. Absent: not checked."
    })
  ),
  feeType: Schema.optional(
    FeeType.annotations({ description: "`surcharge` (default) or `convenience_fee`." })
  ),
  disclosed: Schema.optional(
    Schema.Boolean.annotations({
      description: "The merchant gives the required notice (default true)."
    })
  ),
  recurring: Schema.optional(
    Schema.Boolean.annotations({
      description: "A recurring or instalment payment (default false)."
    })
  ),
  date: Schema.optional(
    IsoDate.annotations({
      description: "Day of the payment; rules are effective-dated (default today)."
    })
  )
} as const
