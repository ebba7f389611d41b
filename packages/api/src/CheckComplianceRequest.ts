/**
 * The body of `POST /v1/regions/check-compliance`: the specification's four required fields
 * plus the optional amount, currency and payer context of docs/design.md §3.
 */
import { Schema } from "effect"
import * as ComplianceContext from "./ComplianceContext.js"
import {
  CardType,
  CurrencyCode,
  closed,
  FlatFeeRate,
  MinorUnits,
  PercentRate,
  RegionCode
} from "./Field.js"

/** The check request. */
export const CheckComplianceRequest = closed(
  Schema.Struct({
    region: RegionCode,
    percentage: PercentRate,
    flatFee: FlatFeeRate,
    cardType: CardType,
    amount: Schema.optional(
      MinorUnits.annotations({
        description: "Base amount, minor units: caps then bind the effective rate fee/amount."
      })
    ),
    currency: Schema.optional(CurrencyCode),
    ...ComplianceContext.fields
  }),
  "CheckComplianceRequest"
)
export type CheckComplianceRequest = typeof CheckComplianceRequest.Type
