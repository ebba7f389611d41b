/** One region's rules by code, on `date` (ISO, default today) when given (docs/design.md §3). */
import { Field, Region } from "@levy/api"
import { ComplianceRules } from "@levy/core"
import { Effect, Schema } from "effect"
import { RegionNotFound } from "./RegionNotFound.js"

/** The request's options: `date` picks the rules in force that day. */
export const RegionRequest = Schema.Struct({ date: Schema.optional(Field.IsoDate) }).annotations({
  parseOptions: { onExcessProperty: "error" }
})
export type RegionRequest = typeof RegionRequest.Type

export const retrieveRegion = (
  code: string,
  request: RegionRequest = {}
): Effect.Effect<Region.Region, RegionNotFound, ComplianceRules> =>
  Effect.flatMap(ComplianceRules, (rules) => {
    const info = rules.region(code, request.date)
    return info === undefined
      ? Effect.fail(new RegionNotFound({ code }))
      : Effect.succeed(Region.fromEngine(info))
  })
