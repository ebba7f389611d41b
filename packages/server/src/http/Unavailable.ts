/** The one answer to a store failure outside the workflows: 503, retry later. */
import { ApiError } from "@levy/api"
import type { StorageError } from "@levy/storage"
import { Effect } from "effect"

/** A store failure is a 503 (retry later); the cause is logged. */
export const unavailable = (error: StorageError) =>
  Effect.logError("storage failure", error).pipe(
    Effect.zipRight(
      Effect.fail(
        new ApiError.ServiceUnavailableError({
          message: "The service is temporarily unavailable; retry later."
        })
      )
    )
  )
