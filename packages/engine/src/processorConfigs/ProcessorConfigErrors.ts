/**
 * How managing the processor configuration fails (docs/design.md §4), in the workflows' own
 * words: checking the credentials fails as Connect.ts says (`CredentialsInvalid`,
 * `CredentialsRefused`, `ProcessorUnreachable`); reading or deleting a configuration that
 * is not there fails with `ProcessorConfigNotFound`.
 */
import type { ProcessorChange, Tenant } from "@levy/storage"
import { Data } from "effect"

export type { CredentialsInvalid, CredentialsRefused, ProcessorUnreachable } from "./Connect.js"

/** No processor is configured for the tenant's account in its mode (`pending`: one is held). */
export class ProcessorConfigNotFound extends Data.TaggedError("ProcessorConfigNotFound")<{
  readonly tenant: Tenant.Tenant
  readonly pending?: ProcessorChange | undefined
}> {}
