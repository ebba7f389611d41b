/**
 * What the client adds to every request, as an `HttpClient` transformation for
 * `HttpApiClient.make(…, { transformClient })`: the bearer key, `Levy-Version`, an
 * `Idempotency-Key` on every POST (made once, before the first attempt, so every retry
 * carries the same key and cannot write twice), the per-attempt timeout, and the retries.
 * Browser-safe: keys come from `globalThis.crypto.randomUUID`.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Context, Duration, Effect, Option } from "effect"
import type { Resolved } from "./Options.js"
import * as RetryPolicy from "./RetryPolicy.js"

/**
 * Optional, per call: receives every response the transport gets, so a caller can read the
 * `request-id` of the response an error came from (the decoded error does not carry headers).
 */
export class ResponseRecorder extends Context.Tag("@levy/client/ResponseRecorder")<
  ResponseRecorder,
  { last: HttpClientResponse.HttpClientResponse | undefined }
>() {}

/** A fresh idempotency key. */
export const newIdempotencyKey = (): string => `idk_${globalThis.crypto.randomUUID()}`

/** The request with the client's headers; POSTs get an Idempotency-Key unless they have one. */
export const withHeaders =
  (options: Resolved) =>
  (request: HttpClientRequest.HttpClientRequest): HttpClientRequest.HttpClientRequest => {
    const base = request.pipe(
      HttpClientRequest.bearerToken(options.apiKey),
      HttpClientRequest.setHeader("levy-version", options.apiVersion),
      HttpClientRequest.acceptJson
    )
    return request.method === "POST" && base.headers["idempotency-key"] === undefined
      ? HttpClientRequest.setHeader(base, "idempotency-key", newIdempotencyKey())
      : base
  }

/** A failure before any response: connection refused or reset, DNS, the timeout. */
const retryableFailure = (error: HttpClientError.HttpClientError): boolean =>
  error._tag === "RequestError" && error.reason === "Transport"

const record = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.serviceOption(ResponseRecorder).pipe(
    Effect.flatMap((recorder) =>
      Effect.sync(() => {
        if (Option.isSome(recorder)) recorder.value.last = response
      })
    )
  )

/** One attempt, aborted (fetch's signal is tied to the fiber) when `timeout` ms pass. */
const attempt = (
  send: Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>,
  request: HttpClientRequest.HttpClientRequest,
  timeout: number
) =>
  send.pipe(
    Effect.timeoutFail({
      duration: Duration.millis(timeout),
      onTimeout: () =>
        new HttpClientError.RequestError({
          request,
          reason: "Transport",
          description: `no response within ${timeout} ms`,
          cause: "timeout"
        })
    })
  )

/** Sends `request` up to 1 + maxRetries times. */
const withRetries =
  (options: Resolved) =>
  (
    send: Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>,
    request: HttpClientRequest.HttpClientRequest
  ): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> => {
    const loop = (
      retry: number
    ): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> =>
      attempt(send, request, options.timeout).pipe(
        Effect.matchEffect({
          onFailure: (error) =>
            retry < options.maxRetries && retryableFailure(error)
              ? Effect.sleep(RetryPolicy.backoffMillis(retry)).pipe(
                  Effect.zipRight(loop(retry + 1))
                )
              : Effect.fail(error),
          onSuccess: (response) => {
            const delay =
              retry < options.maxRetries
                ? RetryPolicy.delayFor(response.status, response.headers["retry-after"], retry)
                : undefined
            if (delay === undefined) return Effect.as(record(response), response)
            // read the abandoned body so its connection can be reused
            return response.text.pipe(
              Effect.ignore,
              Effect.zipRight(Effect.sleep(Duration.millis(delay))),
              Effect.zipRight(loop(retry + 1))
            )
          }
        })
      )
    return loop(0)
  }

/** The transformation for `HttpApiClient.make(…, { transformClient })`. */
export const transformClient =
  (options: Resolved) =>
  (client: HttpClient.HttpClient): HttpClient.HttpClient =>
    client.pipe(
      HttpClient.mapRequest(withHeaders(options)),
      HttpClient.transform(withRetries(options))
    )
