/**
 * Handlers of the regions group over the engine's `ComplianceRules`: the list (cursor =
 * region code), one region, and the compliance check, by the ruleset version the account
 * pins (docs/design.md §3): the one read of storage here. An unknown region is refused as a
 * charge refuses it (400 `unknown_region`).
 */
import { ApiError, ComplianceCheckResult, CurrentKey, List, Region } from "@levy/api"
import { Compliance, ComplianceRules, Rate } from "@levy/core"
import * as Quote from "@levy/engine/estimates/Quote.js"
import * as Config from "@levy/engine/feeConfigs/Config.js"
import { FeeConfigRepository } from "@levy/storage"
import { Effect, Either, Option } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Unavailable from "../http/Unavailable.js"
import { toApiError } from "./ApiErrors.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/regions"

/** One page of `items` (sorted by code) after/before the cursors. */
const page = <A extends { readonly regionCode: string }>(
  items: ReadonlyArray<A>,
  params: {
    readonly limit: number
    readonly starting_after?: string | undefined
    readonly ending_before?: string | undefined
  }
): { readonly data: ReadonlyArray<A>; readonly hasMore: boolean } => {
  if (params.ending_before !== undefined) {
    const cursor = params.ending_before.toUpperCase()
    const before = items.filter((r) => r.regionCode < cursor)
    return {
      data: before.slice(Math.max(0, before.length - params.limit)),
      hasMore: before.length > params.limit
    }
  }
  const cursor = params.starting_after?.toUpperCase()
  const after = cursor === undefined ? items : items.filter((r) => r.regionCode > cursor)
  return { data: after.slice(0, params.limit), hasMore: after.length > params.limit }
}

export const RegionsLive = ApiHandlers.group("regions", (handlers) =>
  Effect.gen(function* () {
    const rules = yield* ComplianceRules
    const repo = yield* FeeConfigRepository
    /** The key's account's ruleset version; an account never configured follows the latest. */
    const rulesetFor = (key: CurrentKey.Key) =>
      repo.get(Handle.tenantOf(key)).pipe(
        Effect.catchTag("StorageError", Unavailable.unavailable),
        Effect.flatMap((found) =>
          Option.isNone(found)
            ? Effect.succeed(rules.ruleset)
            : Config.pinnedRuleset(rules, Config.fromJson(found.value.config))
        )
      )
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.sync(() => {
          const country = urlParams.country?.toUpperCase()
          const all = rules
            .regions(urlParams.date)
            .filter((r) => country === undefined || r.country === country)
            .map(Region.fromEngine)
            .sort((a, b) =>
              a.regionCode < b.regionCode ? -1 : a.regionCode > b.regionCode ? 1 : 0
            )
          const { data, hasMore } = page(all, urlParams)
          return List.make(data, hasMore, URL_PATH)
        })
      )
      .handle("retrieve", ({ path, urlParams }) => {
        const info = rules.region(path.code, urlParams.date)
        return info === undefined
          ? Effect.fail(ApiError.noSuch("region", path.code, "code"))
          : Effect.succeed(Region.fromEngine(info))
      })
      .handle("checkCompliance", ({ payload }) =>
        Effect.gen(function* () {
          const { percentage, flatFee, costOfAcceptance, ...context } = payload
          const input = yield* Either.all({
            percentage: Rate.parsePercentage(percentage),
            flatFee: Rate.parseFlatFee(flatFee),
            costOfAcceptance:
              costOfAcceptance === undefined
                ? Either.right(undefined)
                : Rate.parsePercentage(costOfAcceptance, "costOfAcceptance")
          }).pipe(Either.mapLeft(ApiError.fromFeeError))
          const ruleset = yield* rulesetFor(yield* CurrentKey.CurrentKey)
          const verdict = yield* Compliance.check(ruleset, { ...context, ...input }).pipe(
            Either.mapLeft(ApiError.fromFeeError)
          )
          // A place the ruleset does not know is the charge's 400, not a verdict: no fee is
          // checked there (a place that forbids fees answers `compliant: false`).
          const unknown = Quote.unknownRegion(verdict)
          if (unknown !== undefined) return yield* toApiError(unknown)
          return ComplianceCheckResult.fromEngine(payload.region, verdict)
        })
      )
  })
)
