/**
 * Cross-origin access, so the client works in browsers with publishable keys. The API is
 * authorised by a bearer key, never by cookies, so any origin may call it: a page can only
 * do what the key it holds allows. A preflight carries no key: it is answered without one,
 * counted against the caller's address like any keyless request.
 */

import * as HttpServerResponse from "@effect/platform/HttpServerResponse"

/** Headers of every response to a cross-origin caller. */
export const RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "request-id, idempotent-replayed, levy-version, retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset"
}

const ALLOWED_HEADERS = "authorization, content-type, idempotency-key, levy-version"
const MAX_AGE_S = "600"

/** Whether the request is a CORS preflight. */
export const isPreflight = (request: {
  readonly method: string
  readonly headers: Readonly<Record<string, string | undefined>>
}): boolean =>
  request.method === "OPTIONS" &&
  request.headers.origin !== undefined &&
  request.headers["access-control-request-method"] !== undefined

/** The answer to a preflight for a path that accepts `allowed` methods (none: a 404). */
export const preflight = (allowed: ReadonlyArray<string>) =>
  HttpServerResponse.empty({
    status: 204,
    headers: {
      "access-control-allow-methods": allowed.join(", "),
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": MAX_AGE_S
    }
  })
