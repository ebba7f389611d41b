/**
 * The edge's replay of a stored failure (http/ReplayedFailures.ts): the failed charge or refund
 * read back from the record made under the key (the engine's `Replays.failure`) and worded by
 * the one mapping (ApiErrors.ts), as the request that made it was answered.
 */
import * as Replays from "@levy/engine/inprocess/Replays.js"
import { ChargeRepository } from "@levy/storage"
import { Effect, Layer } from "effect"
import { ReplayedFailures } from "../http/ReplayedFailures.js"
import { toApiError } from "./ApiErrors.js"

export const layer = Layer.effect(
  ReplayedFailures,
  Effect.map(
    ChargeRepository,
    (charges) => (tenant, key, failure) =>
      Replays.failure(tenant, key, failure).pipe(
        Effect.catchTags({
          ChargeFailed: (error) => Effect.flip(toApiError(error)),
          RefundFailed: (error) => Effect.flip(toApiError(error)),
          StorageError: toApiError
        }),
        Effect.provideService(ChargeRepository, charges)
      )
  )
)
