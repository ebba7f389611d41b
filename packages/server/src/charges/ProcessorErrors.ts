/**
 * The processor's typed failures as API errors (docs/design.md §4): a source it cannot use is
 * the request's `source`; a processor that did not answer is a 503 to retry with the same
 * Idempotency-Key; a processor that refused Levy's configuration is a 400
 * `processor_refused` saying what to fix, since only the account's owner can (saying Levy
 * refused it when Levy did, before asking the processor); one that refused a field of the
 * request is a 400 naming that field.
 */
import { ApiError } from "@levy/api"
import { Effect } from "effect"
import { title } from "../processorConfigs/Connect.js"
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

/**
 * A processor's refusal: of the request's own content (`param`), worded as the request's
 * error; else of the account's configuration, saying what to fix there.
 */
export const refused = (error: ProcessorRefused) =>
  error.param !== undefined
    ? new ApiError.InvalidRequestError({
        code: "parameter_invalid",
        param: error.param,
        message: `The payment processor (${error.processor}) refused the request's ${error.param}: ${error.message}${error.code === undefined ? "" : ` (${error.code})`}. Change the request's ${error.param} and retry with a new Idempotency-Key; no money moved.`
      })
    : configurationRefused(error)

const configurationRefused = (error: ProcessorRefused) =>
  new ApiError.InvalidRequestError({
    code: "processor_refused",
    message: error.byLevy
      ? `Levy refused to send this to ${title(error.processor)}${error.code === undefined ? "" : ` (${error.code})`}: ${error.message} Fix the account's processor configuration${error.setting === undefined ? "" : ` (${error.setting})`} with POST /v1/processor-config and retry; no money moved.`
      : `The payment processor (${error.processor}) refused this account's configuration: ${error.message}${error.code === undefined ? "" : ` (${error.code})`}. Fix the processor's credentials or account settings (at the processor, then in Levy's processor configuration) and retry; no money moved.`
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
