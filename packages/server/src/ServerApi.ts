/**
 * The API served so far: `LevyApi`'s estimates, fee-configs and regions groups with the same
 * API-level errors and `Authorization` middleware. HttpApiBuilder needs a handler for every
 * group of the API it serves, so the groups not built yet are left out (no stubs).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { ApiError, Authorization, LevyApi } from "@levy/api"

export class ServerApi extends HttpApi.make("levy")
  .add(LevyApi.EstimatesGroup)
  .add(LevyApi.FeeConfigsGroup)
  .add(LevyApi.RegionsGroup)
  .addError(ApiError.RateLimitErrorWire)
  .addError(ApiError.ApiErrorWire)
  .addError(ApiError.ServiceUnavailableErrorWire)
  .middleware(Authorization.Authorization) {}
