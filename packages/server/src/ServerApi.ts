/**
 * The API this slice serves: `LevyApi`'s regions group with the same API-level errors and
 * `Authorization` middleware. HttpApiBuilder needs a handler for every group of the API it
 * serves, and the other groups need storage, so they are not in it yet (no stubs).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { ApiError, Authorization, LevyApi } from "@levy/api"

export class ServerApi extends HttpApi.make("levy")
  .add(LevyApi.RegionsGroup)
  .addError(ApiError.RateLimitErrorWire)
  .addError(ApiError.ApiErrorWire)
  .addError(ApiError.ServiceUnavailableErrorWire)
  .middleware(Authorization.Authorization) {}
