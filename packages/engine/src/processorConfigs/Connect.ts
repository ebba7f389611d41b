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

/**
 * The credentials (or the settings with them) were refused, with the reason, scrubbed: by the
 * processor, or by Levy itself before asking it (`byLevy`: a key of the other mode, a setting
 * Levy cannot send), naming the configuration's field then (`setting`).
 */
export class CredentialsRefused extends Data.TaggedError("CredentialsRefused")<{
  readonly processor: string
  readonly message: string
  readonly code: string | undefined
  readonly byLevy: boolean
  readonly setting: string | undefined
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
            Effect.logInfo(`${e.byLevy ? "Levy" : "processor"} refused credentials`).pipe(
              Effect.annotateLogs({ processor: definition.name, code: e.code ?? "none" })
            ),
            Effect.fail(
              new CredentialsRefused({
                processor: definition.name,
                message: Credentials.scrub(e.message, request.credentials),
                code: e.code,
                byLevy: e.byLevy === true,
                setting: e.setting
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

/** What was refused, as the person saving named it: the credentials, or a setting. */
const refusedPart = (e: CredentialsRefused): string =>
  e.setting === undefined || e.setting.startsWith("credentials")
    ? "these credentials"
    : `the ${e.setting} setting for ${title(e.processor)}`

/**
 * What to tell the person saving, the same from the API and the CLI: who refused (the
 * processor, or Levy before asking it), what, and why.
 */
export const explain = (e: CredentialsRefused | ProcessorUnreachable): string =>
  e._tag === "CredentialsRefused"
    ? `${e.byLevy ? "Levy" : title(e.processor)} refused ${refusedPart(e)}${e.code === undefined ? "" : ` (${e.code})`}: ${e.message} Nothing was saved${e.byLevy ? `; ${title(e.processor)} was not called` : ""}.`
    : `${title(e.processor)} could not be reached to check the credentials; nothing was saved. Retry later.`

/** Where the processor's notifications for this tenant go (docs/processors.md). */
export const webhookPath = (tenant: Tenant.Tenant, processor: string) =>
  `/v1/processor-webhooks/${encodeURIComponent(tenant.accountId)}/${tenant.livemode ? "live" : "test"}/${processor}`
