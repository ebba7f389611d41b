/**
 * A 404 that says when the id exists in the key's other mode, as Stripe's does ("a similar
 * object exists in test mode, but a live mode key was used"): test and live data never mix,
 * but an integrator reading a test-mode id with a live key should learn why it is missing.
 */
import { ApiError } from "@levy/api"
import { Tenant } from "@levy/storage"

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
