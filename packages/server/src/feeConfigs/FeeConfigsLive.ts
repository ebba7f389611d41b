/**
 * The fee configuration and its approval workflow (docs/design.md §6): read, update (validated
 * with `FeeSchedule.make` over the current configuration; a change not compliant in the
 * account's `defaultRegion` is refused), and in live mode a change that raises the fee held
 * until another secret key approves it. Every applied change writes `fee_config.updated`
 * in the same transaction.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { ApiError, CurrentKey, FeeConfig } from "@levy/api"
import { ComplianceRules } from "@levy/core"
import { FeeConfigRepository, Ids, Transactions } from "@levy/storage"
import { Effect, Option } from "effect"
import * as Idempotency from "../http/Idempotency.js"
import { ServerApi } from "../ServerApi.js"
import * as Changes from "./Changes.js"
import * as Config from "./Config.js"
import * as FeeRaise from "./FeeRaise.js"

const now = () => Math.floor(Date.now() / 1000)

export const FeeConfigsLive = HttpApiBuilder.group(ServerApi, "feeConfigs", (handlers) =>
  Effect.gen(function* () {
    const changes = yield* Changes.make
    const { checkDefaultRegion, pendingOf, applying } = changes
    const rules = yield* ComplianceRules
    const repo = yield* FeeConfigRepository
    const transactions = yield* Transactions
    const ids = yield* Ids

    return handlers
      .handle("retrieve", () =>
        Effect.gen(function* () {
          const tenant = Config.tenantOf(yield* CurrentKey.CurrentKey)
          const config = yield* Config.peek(tenant)
          return Config.toWire(rules, tenant, config, { pending: yield* pendingOf(tenant) })
        })
      )
      .handle("update", ({ payload }) =>
        Effect.gen(function* () {
          const key = yield* CurrentKey.CurrentKey
          const tenant = Config.tenantOf(key)
          const before = yield* Config.peek(tenant)
          const next = Config.fromJson(Config.toJson({ ...before, ...payload }))
          yield* Config.checkPin(next)
          yield* Config.schedule(before).pipe(Effect.orDieWith(Config.refused))
          const nextSchedule = yield* Config.schedule(next)
          yield* checkDefaultRegion(next, nextSchedule)
          // Only a change that passed its checks stores the configuration (with the defaults
          // it was checked against, when none was stored yet).
          yield* Config.current(tenant)
          const changes = Config.toJson(payload)
          const id = yield* ids.make("fcc")
          const change = { id, changes, requestedBy: key.keyId, at: now() }
          if (tenant.livemode && FeeRaise.raisesFee(rules, before, next)) {
            // The held change and the response to replay for it commit together.
            const held = yield* transactions
              .run(
                Effect.tap(repo.request(tenant, change), (requested) =>
                  Idempotency.recordSuccess(
                    FeeConfig.FeeConfig,
                    Config.toWire(rules, tenant, before, {
                      pending: Option.some(requested),
                      updated: false
                    })
                  )
                )
              )
              .pipe(
                Effect.catchTags({
                  DuplicateRecord: () =>
                    new ApiError.InvalidRequestError({
                      code: "fee_config_change_pending",
                      message:
                        "A change is already pending approval: approve or cancel it (POST /v1/fee-configs/pending/approve or /cancel) first."
                    }),
                  StorageError: Config.unavailable
                })
              )
            return Config.toWire(rules, tenant, before, {
              pending: Option.some(held),
              updated: false
            })
          }
          return yield* applying(
            tenant,
            repo.apply(tenant, change).pipe(Effect.catchTag("DuplicateRecord", Effect.die)),
            yield* pendingOf(tenant)
          ).pipe(Effect.catchTag("StorageError", Config.unavailable))
        })
      )
      .handle("approvePending", ({ payload }) =>
        Effect.flatMap(CurrentKey.CurrentKey, (key) =>
          changes.approve(Config.tenantOf(key), payload.id, key.keyId)
        )
      )
      .handle("cancelPending", () =>
        Effect.flatMap(CurrentKey.CurrentKey, (key) =>
          changes.cancel(Config.tenantOf(key), key.keyId)
        )
      )
  })
)
