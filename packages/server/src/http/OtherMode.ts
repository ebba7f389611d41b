/**
 * A 404 that says when the id exists in the key's other mode, as Stripe's does ("a similar
 * object exists in test mode, but a live mode key was used"): test and live data never mix,
 * but an integrator reading a test-mode id with a live key should learn why it is missing.
 */
import { ApiError } from "@levy/api"
import { Tenant } from "@levy/storage"
import { Effect } from "effect"

const modeOf = (tenant: Tenant.Tenant) => (tenant.livemode ? "live" : "test")

/** The 404 for `entity` `id` (named `param`), saying so when it exists in the other mode. */
export const notFound = (
  tenant: Tenant.Tenant,
  entity: string,
  id: string,
  inOtherMode: boolean,
  param = "id"
): ApiError.NotFoundError =>
  inOtherMode
    ? new ApiError.NotFoundError({
        param,
        message: `No such ${entity}: '${id}'; a similar object exists in ${modeOf(Tenant.make(tenant.accountId, !tenant.livemode))} mode, but a ${modeOf(tenant)} mode key was used to make this request.`
      })
    : ApiError.noSuch(entity, id, param)

/**
 * Fails with the 404 for `entity` `id` (named `param`), mentioning the other mode when
 * `existsIn` finds it there. A store failure while looking is the plain 404.
 */
export const noSuch = <E, R>(
  tenant: Tenant.Tenant,
  entity: string,
  id: string,
  existsIn: (tenant: Tenant.Tenant) => Effect.Effect<unknown, E, R>,
  param = "id"
): Effect.Effect<never, ApiError.NotFoundError, R> => {
  const other = Tenant.make(tenant.accountId, !tenant.livemode)
  return existsIn(other).pipe(
    Effect.as(true),
    Effect.orElseSucceed(() => false),
    Effect.flatMap((found) => Effect.fail(notFound(tenant, entity, id, found, param)))
  )
}
