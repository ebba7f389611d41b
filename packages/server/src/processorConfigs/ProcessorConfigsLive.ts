/**
 * Handlers of `/v1/processor-config` (docs/design.md §4): save (checked with the processor
 * first, `Connect.ts`), retrieve and delete the processor of the key's account and mode. The
 * answers show the credentials masked; a save's stored idempotent response is that masked
 * answer, so a credential reaches neither a response, a log nor the idempotency store.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { ApiError, CurrentKey, ProcessorConfig } from "@levy/api"
import { ProcessorConfigRepository, type Tenant, Transactions } from "@levy/storage"
import { Clock, Effect, Option } from "effect"
import { tenantOf, unavailable } from "../feeConfigs/Config.js"
import * as Idempotency from "../http/Idempotency.js"
import { ServerApi } from "../ServerApi.js"
import * as Connect from "./Connect.js"
import * as Wire from "./Wire.js"

/** The 404 when nothing is configured, saying how to configure it. */
export const noneConfigured = (tenant: Tenant.Tenant) =>
  new ApiError.NotFoundError({
    code: "processor_not_configured",
    message: `No payment processor is configured for this account in ${tenant.livemode ? "live" : "test"} mode. Save one with POST /v1/processor-config {"processor": "stripe" | "adyen", "credentials": {…}}, \`levy processors set\`, or the dashboard's Payment processor page (docs/processors.md).`
  })

/** What saving fails with, as API errors. */
const connectFailures = {
  CredentialsInvalid: (e: Connect.CredentialsInvalid) =>
    Effect.fail(
      new ApiError.InvalidRequestError({ code: e.code, message: e.message, param: e.param })
    ),
  CredentialsRefused: (e: Connect.CredentialsRefused) =>
    Effect.fail(
      new ApiError.InvalidRequestError({
        code: "processor_credentials_refused",
        message: Connect.explain(e),
        param: "credentials"
      })
    ),
  ProcessorUnreachable: (e: Connect.ProcessorUnreachable) =>
    Effect.fail(
      new ApiError.ServiceUnavailableError({
        code: "processor_unavailable",
        message: Connect.explain(e)
      })
    )
}

export const ProcessorConfigsLive = HttpApiBuilder.group(ServerApi, "processorConfig", (handlers) =>
  Effect.gen(function* () {
    const repo = yield* ProcessorConfigRepository
    const transactions = yield* Transactions
    const currentTenant = Effect.map(CurrentKey.CurrentKey, tenantOf)

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const tenant = yield* currentTenant
          const request = yield* Connect.verify(tenant, {
            processor: payload.processor,
            credentials: payload.credentials,
            surcharge: payload.surcharge ?? false
          }).pipe(Effect.catchTags(connectFailures))
          const at = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          return yield* transactions
            .run(
              Effect.gen(function* () {
                const saved = yield* repo.save(tenant, { ...request, at })
                const answer = Wire.config({ config: saved, credentials: request.credentials })
                yield* Idempotency.recordSuccess(ProcessorConfig.ProcessorConfig, answer)
                return answer
              })
            )
            .pipe(Effect.catchTag("StorageError", unavailable))
        })
      )
      .handle("retrieve", () =>
        Effect.gen(function* () {
          const tenant = yield* currentTenant
          const opened = yield* repo.open(tenant).pipe(Effect.catchTag("StorageError", unavailable))
          if (Option.isNone(opened)) return yield* noneConfigured(tenant)
          return Wire.config(opened.value)
        })
      )
      .handle("delete", () =>
        Effect.gen(function* () {
          const tenant = yield* currentTenant
          return yield* transactions
            .run(
              Effect.gen(function* () {
                const answer = Wire.deleted(yield* repo.remove(tenant))
                yield* Idempotency.recordSuccess(ProcessorConfig.DeletedProcessorConfig, answer)
                return answer
              })
            )
            .pipe(
              Effect.catchTags({
                RecordNotFound: () => Effect.fail(noneConfigured(tenant)),
                StorageError: unavailable
              })
            )
        })
      )
  })
)
