/**
 * HTTP handlers as one-liners over the workflows: the request's tenant (its key's account and
 * mode) and its Idempotency-Key claim come from the request's context, the workflow's
 * failures become the API's errors (ApiErrors.ts), and what the workflow did with the claim
 * goes back to the edge that took it.
 */
import { CurrentKey, List } from "@levy/api"
import type { Claim } from "@levy/engine/idempotency/Claim.js"
import * as RequestClaim from "@levy/engine/idempotency/RequestClaim.js"
import type { Written } from "@levy/engine/idempotency/Written.js"
import { type Page, Tenant } from "@levy/storage"
import { Effect, type Option } from "effect"
import { type ApiErrorOf, type DomainError, isStored, toApiError } from "./ApiErrors.js"

/** The key's tenant: its account and mode; nothing crosses either. */
export const tenantOf = (key: CurrentKey.Key): Tenant.Tenant =>
  Tenant.make(key.accountId, key.mode === "live")

/** The request's tenant. */
export const tenant: Effect.Effect<Tenant.Tenant, never, CurrentKey.CurrentKey> = Effect.map(
  CurrentKey.CurrentKey,
  tenantOf
)

/** Runs a workflow that writes, for the request's tenant and under its claim. */
export const write = <A, E extends DomainError, R>(
  run: (tenant: Tenant.Tenant, claim: Option.Option<Claim>) => Effect.Effect<Written<A>, E, R>
): Effect.Effect<A, ApiErrorOf<E>, R | CurrentKey.CurrentKey> =>
  Effect.gen(function* () {
    const written = yield* run(yield* tenant, yield* RequestClaim.current).pipe(
      Effect.catchAll((error) =>
        Effect.zipRight(
          isStored(error) ? RequestClaim.report("stored") : Effect.void,
          toApiError(error)
        )
      )
    )
    yield* RequestClaim.report(written.recording)
    return written.value
  })

/** Runs a workflow that reads (or writes nothing to replay) for the request's tenant. */
export const read = <A, E extends DomainError, R>(
  run: (tenant: Tenant.Tenant) => Effect.Effect<A, E, R>
): Effect.Effect<A, ApiErrorOf<E>, R | CurrentKey.CurrentKey> =>
  Effect.flatMap(tenant, (t) => Effect.catchAll(run(t), toApiError))

/** Runs a list for the request's tenant and answers its page as the wire list at `url`. */
export const list = <A, E extends DomainError, R>(
  url: string,
  run: (tenant: Tenant.Tenant) => Effect.Effect<Page.Page<A>, E, R>
): Effect.Effect<List.List<A>, ApiErrorOf<E>, R | CurrentKey.CurrentKey> =>
  Effect.map(read(run), (page) => List.make(page.data, page.hasMore, url))
