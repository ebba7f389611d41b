/**
 * The bearer-key middleware every endpoint goes through (specification "Authentication"):
 * the server implements it, failing with 401 for a bad key and 403 for a key without the
 * permission, and provides the `CurrentKey`.
 */
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context, Schema } from "effect"
import { AuthenticationErrorWire, PermissionErrorWire } from "./ApiError.js"
import { CurrentKey } from "./CurrentKey.js"

/** `Authorization: Bearer <API key>`. */
export const bearer = HttpApiSecurity.bearer.pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "`Authorization: Bearer <API key>`. Keys: sk_dev_service_… / pk_dev_service_… (test mode), sk_prod_service_… / pk_prod_service_… (live mode). Publishable keys may call only POST /v1/estimates, GET /v1/regions/{code} and POST /v1/regions/check-compliance."
  )
)

/** The middleware tag: the server provides its implementation. */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()(
  "@levy/api/Authorization",
  {
    failure: Schema.Union(AuthenticationErrorWire, PermissionErrorWire),
    provides: CurrentKey,
    security: { bearer }
  }
) {}

/** Endpoint annotation: publishable keys may call it (docs/design.md §5); every other endpoint needs a secret key. */
export class PublishableKeyAllowed extends Context.Reference<PublishableKeyAllowed>()(
  "@levy/api/PublishableKeyAllowed",
  { defaultValue: () => false }
) {}
