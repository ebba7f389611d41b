/**
 * How managing API keys fails (docs/design.md §5), in the engine's words: the HTTP API answers
 * them through ApiErrors.ts, `LevyService` returns them as they are.
 */
import { Data } from "effect"

/** No key `id` in the tenant's account and mode. */
export class ApiKeyNotFound extends Data.TaggedError("ApiKeyNotFound")<{
  readonly id: string
}> {}

/** The key making the request asked to revoke itself: another key of the account must. */
export class KeyRevokesItself extends Data.TaggedError("KeyRevokesItself")<{
  readonly id: string
}> {}
