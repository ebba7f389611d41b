/**
 * Connecting a processor (docs/design.md §4), the same for `POST /v1/processor-config` and
 * `levy processors set`: the credentials are checked against the processor's definition, then
 * with ONE read-only call to the processor (the adapter's `verifyCredentials`, built exactly
 * as charges will build it: this mode, the server's API base URL), and only then saved.
 * Nothing here logs or returns a credential: a processor's reason is scrubbed of them.
 */
import type { Tenant } from "@levy/storage"
import { Data, Effect, Either } from "effect"
import * as ApiBaseUrls from "../processors/ApiBaseUrls.js"
import * as Credentials from "./Credentials.js"

/** The credentials are not what the processor's definition asks for (a 400 naming the field). */
export class CredentialsInvalid extends Data.TaggedError("CredentialsInvalid")<{
  readonly code: Credentials.Problem["code"]
  readonly param: string
  readonly message: string
}> {}

/** The processor refused the credentials (or the settings with them); its reason, scrubbed. */
export class CredentialsRefused extends Data.TaggedError("CredentialsRefused")<{
  readonly processor: string
  readonly message: string
  readonly code: string | undefined
}> {}

/** The processor could not be reached to check them: try again later; nothing was saved. */
export class ProcessorUnreachable extends Data.TaggedError("ProcessorUnreachable")<{
  readonly processor: string
}> {}

/** What to connect. */
export interface Request {
  readonly processor: string
  readonly credentials: Readonly<Record<string, string>>
  readonly surcharge: boolean
}

/** The request once the processor accepted its credentials. */
export const verify = (
  tenant: Tenant.Tenant,
  request: Request
): Effect.Effect<Request, CredentialsInvalid | CredentialsRefused | ProcessorUnreachable> =>
  Effect.gen(function* () {
    const checked = Either.flatMap(Credentials.definitionOf(request.processor), (definition) =>
      Either.map(Credentials.check(definition, request.credentials), () => definition)
    )
    if (Either.isLeft(checked)) return yield* new CredentialsInvalid(checked.left)
    const definition = checked.right
    const urls = yield* ApiBaseUrls.ProcessorApiBaseUrls
    const apiBaseUrl = ApiBaseUrls.of(urls, definition.name)
    const adapter = definition.make({
      credentials: request.credentials,
      livemode: tenant.livemode,
      surcharge: request.surcharge,
      ...(apiBaseUrl === undefined ? {} : { apiBaseUrl })
    })
    yield* adapter.verifyCredentials().pipe(
      Effect.catchTags({
        ProcessorRefused: (e) =>
          Effect.zipRight(
            // The processor's code only: its message may quote what it was sent.
            Effect.logInfo("processor refused credentials").pipe(
              Effect.annotateLogs({ processor: definition.name, code: e.code ?? "none" })
            ),
            Effect.fail(
              new CredentialsRefused({
                processor: definition.name,
                message: Credentials.scrub(e.message, request.credentials),
                code: e.code
              })
            )
          ),
        ProcessorUnavailable: () =>
          Effect.zipRight(
            Effect.logWarning("processor unreachable while checking credentials").pipe(
              Effect.annotateLogs({ processor: definition.name })
            ),
            Effect.fail(new ProcessorUnreachable({ processor: definition.name }))
          )
      })
    )
    return request
  })

/** A processor's name as people write it: `Stripe`, `Adyen`. */
export const title = (processor: string) => processor.charAt(0).toUpperCase() + processor.slice(1)

/** What to tell the person saving, the same from the API and the CLI. */
export const explain = (e: CredentialsRefused | ProcessorUnreachable): string =>
  e._tag === "CredentialsRefused"
    ? `${title(e.processor)} refused these credentials${e.code === undefined ? "" : ` (${e.code})`}: ${e.message} Nothing was saved.`
    : `${title(e.processor)} could not be reached to check the credentials; nothing was saved. Retry later.`

/** Where the processor's notifications for this tenant go (docs/processors.md). */
export const webhookPath = (tenant: Tenant.Tenant, processor: string) =>
  `/v1/processor-webhooks/${encodeURIComponent(tenant.accountId)}/${tenant.livemode ? "live" : "test"}/${processor}`
