/**
 * A record of the tenant by id, told apart when it exists in the tenant's other mode: test and
 * live data never mix, but a caller reading a test-mode id in live mode should learn why it is
 * missing (Stripe says so in its 404). A store failure while looking there is "no".
 */
import { type RecordNotFound, Tenant } from "@levy/storage"
import { Effect } from "effect"

/**
 * `get` for `tenant`; when it has no such record, the failure `missing` makes, told whether
 * `get` finds it in the other mode.
 */
export const found = <A, E, R, M>(
  tenant: Tenant.Tenant,
  get: (tenant: Tenant.Tenant) => Effect.Effect<A, E | RecordNotFound, R>,
  missing: (inOtherMode: boolean) => M
): Effect.Effect<A, Exclude<E, RecordNotFound> | M, R> =>
  get(tenant).pipe(
    Effect.catchIf(
      (error): error is RecordNotFound =>
        (error as { readonly _tag?: unknown })._tag === "RecordNotFound",
      () =>
        get(Tenant.make(tenant.accountId, !tenant.livemode)).pipe(
          Effect.as(true),
          Effect.orElseSucceed(() => false),
          Effect.flatMap((inOtherMode) => Effect.fail(missing(inOtherMode)))
        )
    )
  ) as Effect.Effect<A, Exclude<E, RecordNotFound> | M, R>
