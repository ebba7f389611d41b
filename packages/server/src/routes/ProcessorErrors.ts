/**
 * The processor's typed failures as API errors (docs/design.md §4): a refusal as a 400 in the
 * engine's words (`ProcessorRefusals`); a processor that did not answer is a 503 to retry
 * with the same Idempotency-Key.
 */
import { ApiError } from "@levy/api"
import * as ProcessorRefusals from "@levy/engine/charges/ProcessorRefusals.js"
import type {
  ProcessorRefused,
  ProcessorUnavailable,
  SourceInvalid
} from "@levy/engine/processors/PaymentProcessor.js"
import { Effect } from "effect"

const invalid = (refusal: ProcessorRefusals.Refusal) =>
  new ApiError.InvalidRequestError(
    refusal.param === undefined
      ? { code: refusal.code, message: refusal.message }
      : { code: refusal.code, message: refusal.message, param: refusal.param }
  )

export const sourceInvalid = (error: SourceInvalid) =>
  invalid(ProcessorRefusals.sourceInvalid(error))

export const refused = (error: ProcessorRefused) => invalid(ProcessorRefusals.refused(error))

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
