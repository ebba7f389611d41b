/**
 * Estimating a fee (docs/design.md §2, §3), free of HTTP: the tenant's configuration in force
 * (read, never written) through `Quote.quote`, for the card of `source` when given, as a quote
 * (Quoting.ts); an unknown region fails as a charge's does (`FeeNotCompliant`). A stored configuration the engine refuses, or
 * that pins a ruleset this server does not know, is the server's fault: a defect, as over HTTP.
 */
import type { EstimateRequest, Estimate as EstimateWire } from "@levy/api"
import { ComplianceRules, type FeeError } from "@levy/core"
import { type FeeConfigRepository, Signer, type Tenant } from "@levy/storage"
import { Effect, Option } from "effect"
import * as Config from "../feeConfigs/Config.js"
import type { PaymentProcessors } from "../processors/PaymentProcessors.js"
import type { FeeNotCompliant } from "./PaymentErrors.js"
import * as Quote from "./Quote.js"
import * as Quoting from "./Quoting.js"

/** The estimate of `input` for `tenant`: a quote a charge can name (docs/quotes.md). */
export const createEstimate = (
  tenant: Tenant.Tenant,
  input: EstimateRequest.EstimateRequest
): Effect.Effect<
  EstimateWire.Estimate,
  FeeError | FeeNotCompliant | Quoting.DescribeError,
  FeeConfigRepository | ComplianceRules | Signer | PaymentProcessors
> =>
  Effect.gen(function* () {
    const described = yield* Quoting.describeSource(tenant, input)
    const config = yield* Config.inForce(tenant)
    const schedule = yield* Effect.orDieWith(Config.scheduleOf(config), Config.refused)
    const ruleset = yield* Config.pinnedRuleset(yield* ComplianceRules, config)
    const estimate = yield* Quote.quote(
      config,
      schedule,
      ruleset,
      Quoting.forCard(input, described)
    )
    const card = Option.isSome(described) ? described.value.card : null
    return Quoting.issue(yield* Signer, tenant, estimate, card, Math.floor(Date.now() / 1000))
  })
