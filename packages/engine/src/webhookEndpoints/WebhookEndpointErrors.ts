/**
 * How managing webhook endpoints fails (docs/design.md §8), in the workflows' own words: the
 * HTTP API answers them through ApiErrors.ts, `LevyService` returns them as they are.
 */
import { Data } from "effect"

/** No endpoint `id` in the tenant's account and mode. */
export class WebhookEndpointNotFound extends Data.TaggedError("WebhookEndpointNotFound")<{
  readonly id: string
}> {}

/** Events may not be sent to the URL in this mode (UrlGuard.ts): `message` says why. */
export class WebhookUrlRefused extends Data.TaggedError("WebhookUrlRefused")<{
  readonly url: string
  readonly message: string
}> {}

/**
 * The account already has `limit` endpoints in this mode (disabled ones count): every enabled
 * endpoint is one more POST per event (docs/design.md §8).
 */
export class WebhookEndpointLimitReached extends Data.TaggedError("WebhookEndpointLimitReached")<{
  readonly livemode: boolean
  readonly limit: number
}> {}
