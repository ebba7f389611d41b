/**
 * The processor's typed failures as API errors (docs/design.md §4): a source it cannot use is
 * the request's `source`; a processor that did not answer is a 503 to retry with the same
 * Idempotency-Key; a processor that refused Levy's configuration is a 400
 * `processor_refused` saying what to fix, since only the account's owner can.
 */
import { ApiError } from "@levy/api"
import { Effect } from "effect"
import type {
  ProcessorRefused,
  ProcessorUnavailable,
  SourceInvalid
} from "../processors/PaymentProcessor.js"

export const sourceInvalid = (error: SourceInvalid) =>
  new ApiError.InvalidRequestError({
    code: "source_invalid",
    param: "source",
    message: `No such source: '${error.source}'. ${error.message}`
  })

export const refused = (error: ProcessorRefused) =>
  new ApiError.InvalidRequestError({
    code: "processor_refused",
    message: `The payment processor (${error.processor}) refused this account's configuration: ${error.message}${error.code === undefined ? "" : ` (${error.code})`}. Fix the processor's credentials or account settings (at the processor, then in Levy's processor configuration) and retry; no money moved.`
  })

/** A 503 for a processor that did not answer; `pending` names the charge or refund left to finish. */
export const unavailable = (error: ProcessorUnavailable, pending?: string) =>
  Effect.logWarning("payment processor unavailable", error).pipe(
    Effect.zipRight(
      Effect.fail(
        new ApiError.ServiceUnavailableError({
          message: `The payment processor (${error.processor}) did not answer${pending === undefined ? "" : `; ${pending} is pending and will be completed`}. Retry later with the same Idempotency-Key.`
        })
      )
    )
  )

/** Any failure of `describe` as the API's error. */
export const ofDescribe = (
  error: SourceInvalid | ProcessorRefused | ProcessorUnavailable
): Effect.Effect<never, ApiError.InvalidRequestError | ApiError.ServiceUnavailableError> => {
  switch (error._tag) {
    case "SourceInvalid":
      return Effect.fail(sourceInvalid(error))
    case "ProcessorRefused":
      return Effect.fail(refused(error))
    case "ProcessorUnavailable":
      return unavailable(error)
  }
}
