/**
 * What the edge replays for a key whose request failed with the record it made under the key (a
 * charge or refund the processor refused, docs/design.md §7): the API's error that request
 * answered, made again from that record. Given to the edge where the server is put together
 * (Server.ts, from routes/ReplayedFailures.ts), so that http/ names no resource.
 */
import type { ApiError } from "@levy/api"
import type { StoredFailure, Tenant } from "@levy/storage"
import { Context, type Effect } from "effect"

/**
 * The error to replay for `failure` stored under `key`; fails with the API's error when the
 * record cannot be read now (a store failure: a 503, the key kept for a retry).
 */
export type ReplayFailure = (
  tenant: Tenant.Tenant,
  key: string,
  failure: StoredFailure
) => Effect.Effect<ApiError.AnyError, ApiError.AnyError>

export class ReplayedFailures extends Context.Tag("@levy/server/http/ReplayedFailures")<
  ReplayedFailures,
  ReplayFailure
>() {}
