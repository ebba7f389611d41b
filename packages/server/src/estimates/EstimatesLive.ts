/**
 * `POST /v1/estimates`: the account's configuration for the key's mode (created with the
 * defaults on first use) through `Estimate.estimate`, the disclosure text rendered for the
 * quoted fee. Publishable keys are allowed (the Authorization middleware checks it).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { ApiError, CurrentKey, Estimate as EstimateWire } from "@levy/api"
import { Compliance, ComplianceRules, Estimate } from "@levy/core"
import { Effect, Either } from "effect"
import * as Config from "../feeConfigs/Config.js"
import { ServerApi } from "../ServerApi.js"

export const EstimatesLive = HttpApiBuilder.group(ServerApi, "estimates", (handlers) =>
  Effect.gen(function* () {
    const rules = yield* ComplianceRules
    return handlers.handle("create", ({ payload }) =>
      Effect.gen(function* () {
        const key = yield* CurrentKey.CurrentKey
        const { config } = yield* Config.current(Config.tenantOf(key))
        // A stored configuration the engine refuses is our fault, not the caller's.
        const schedule = yield* Config.schedule(config).pipe(Effect.orDie)
        const { costOfAcceptance, region, ...context } = payload
        const coa = yield* Config.costOfAcceptancePpm(costOfAcceptance ?? config.costOfAcceptance)
        const quoted = yield* Estimate.estimate(schedule, rules.ruleset, {
          ...context,
          region: region ?? config.defaultRegion,
          costOfAcceptance: coa,
          allowUncertain: config.allowUncertain
        }).pipe(Either.mapLeft(ApiError.fromFeeError))
        const wire = EstimateWire.fromEngine(quoted)
        const text = wire.compliance.disclosureText
        if (text === null) return wire
        const disclosureText = Compliance.renderDisclosure(text, {
          percentage: schedule.percentage,
          flatFee: schedule.flatFee,
          amount: quoted.baseAmount,
          currency: quoted.currency,
          fee: quoted.convenienceFee,
          flatPart: Math.min(quoted.feeBreakdown.flatFee, quoted.convenienceFee)
        })
        return { ...wire, compliance: { ...wire.compliance, disclosureText } }
      })
    )
  })
)
