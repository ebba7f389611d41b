/**
 * @levy/client: the Effect client (`LevyClient`, derived from the `/v1` HttpApi) and the
 * Promise facade (`new Levy(apiKey, options)`) with its error classes. Browser-safe: no
 * Node-only imports.
 */

// Webhook signatures (docs/design.md §8): verify a delivery against its raw body; Web Crypto only.
export {
  verifyWebhook,
  type WebhookEvent,
  WebhookSignature,
  WebhookVerificationError,
  type WebhookVerificationReason
} from "@levy/api"
export { Levy, type ListQuery, type RequestOptions } from "./Levy.js"
export * as LevyClient from "./LevyClient.js"
export {
  APIError,
  AuthenticationError,
  CardError,
  IdempotencyError,
  InvalidRequestError,
  LevyError,
  type LevyErrorFields,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError
} from "./LevyError.js"
export type { Options } from "./Options.js"
export { Page, type PagePromise } from "./Page.js"
export * as RetryPolicy from "./RetryPolicy.js"
export * as Transport from "./Transport.js"
