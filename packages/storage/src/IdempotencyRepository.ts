/**
 * Idempotency records (docs/design.md §7): per (account, mode, key) the request's fingerprint,
 * its state, and once done the stored response, kept 24 hours.
 *
 * `begin` claims a key. Inside a transaction that also writes the charge, its event and
 * `complete`, the claim commits with them or not at all; a concurrent request with the
 * same key waits for that transaction (PostgreSQL: the unique index; embedded and memory:
 * the single connection / lock) and then replays the stored response. Called on its own,
 * `begin` commits an in-progress record at once, and concurrent requests see
 * `IdempotencyKeyInUse` until `complete` or `release`.
 */
import { Context, Effect } from "effect"
import type { Json } from "./Json.js"
import type { SecretBoxService } from "./SecretBox.js"
import {
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  type RecordNotFound,
  type StorageError
} from "./StorageError.js"
import type { Tenant } from "./Tenant.js"

/** How long a record is kept: 24 hours. */
export const TTL_MS = 24 * 60 * 60 * 1000

/**
 * How long an in-progress claim holds its key. A request's write and its stored response
 * commit together, so a claim still in progress after this long belongs to a request that
 * died without writing (a crashed process): a retry may take the key and run again. The
 * server answers every request well within it.
 */
export const CLAIM_LEASE_MS = 30 * 1000

/** Whether a record no longer holds its key at `now`: expired, or an abandoned claim. */
export const lapsed = (record: IdempotencyRecord, now: number): boolean =>
  record.expiresAtMs <= now ||
  (record.state === "in_progress" && record.createdMs <= now - CLAIM_LEASE_MS)

/** A fresh in-progress record for a key first seen at `now`. */
export const started = (
  tenant: Tenant,
  key: string,
  fingerprint: string,
  now: number
): IdempotencyRecord => ({
  accountId: tenant.accountId,
  livemode: tenant.livemode,
  key,
  fingerprint,
  state: "in_progress",
  response: null,
  createdMs: now,
  expiresAtMs: now + TTL_MS
})

/**
 * What a keyed request's first run answered, kept for its replays: a success with its result
 * as the wire encodes it, or a failure that is the record the request made under its key (a
 * charge or refund the processor refused), which a replay reads back from that record. It is
 * no door's answer: each door words it (the HTTP API as its status and body).
 */
export type StoredResponse = StoredSuccess | StoredFailure

/** A success: the result as the wire encodes it. */
export interface StoredSuccess {
  readonly outcome: "succeeded"
  readonly body: Json
  /**
   * Top-level fields of `body` that hold a secret (a webhook endpoint's signing secret): they
   * are stored sealed by `SecretBox`, never in plain text, and opened again on replay.
   */
  readonly sealed?: ReadonlyArray<string> | undefined
}

/** A failure: the record of this kind made under the key failed (its own fields say how). */
export interface StoredFailure {
  readonly outcome: "failed"
  readonly record: "charge" | "refund"
}

/** A success with `body`. */
export const storedSuccess = (body: Json, sealed?: ReadonlyArray<string>): StoredSuccess =>
  sealed === undefined ? { outcome: "succeeded", body } : { outcome: "succeeded", body, sealed }

/** The failure of the record of kind `record` made under the key. */
export const storedFailure = (record: StoredFailure["record"]): StoredFailure => ({
  outcome: "failed",
  record
})

// ---- in a row's two columns ---------------------------------------------------------------
//
// `response_status` and `response_body` keep what versions before outcomes stored there, the
// HTTP answer (status; the result, or the API's error), so that a record they wrote within its
// 24 hours still replays: a status below 300 is a success, any other a failure. A failure's
// body names the record that failed; an earlier one held the API's error, and only a refund's
// has the code `refund_failed`.

/** The `response_status` of a success, and of a failure. */
const SUCCEEDED_STATUS = 200
const FAILED_STATUS = 400

/** What `response_status` holds for `response`. */
export const statusColumn = (response: StoredResponse): number =>
  response.outcome === "succeeded" ? SUCCEEDED_STATUS : FAILED_STATUS

/** What `response_body` holds for `response` (sealed already, if it has sealed fields). */
export const bodyColumn = (response: StoredResponse): Json =>
  response.outcome === "succeeded" ? response.body : { failed: response.record }

/** A failure's record, as a failure's body names it now or as an earlier API error implies. */
const failedRecord = (body: Json): StoredFailure["record"] => {
  const named = (body as { failed?: unknown } | null)?.failed
  if (named === "charge" || named === "refund") return named
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code
  return code === "refund_failed" ? "refund" : "charge"
}

/** The response a row's two columns hold (null while the request runs). */
export const fromColumns = (status: number | null, body: Json): StoredResponse | null =>
  status === null
    ? null
    : status < 300
      ? { outcome: "succeeded", body }
      : storedFailure(failedRecord(body))

/** The marker of a sealed field in a stored body: `{"$sealed": "v1.…"}`. */
const SEALED = "$sealed"

/** What a sealed field is bound to: its record and field, so it cannot be moved. */
const sealContext = (accountId: string, livemode: boolean, key: string, field: string) =>
  `idempotency/${accountId}/${livemode}/${key}/${field}`

/** The response to store: a success's `sealed` fields sealed. */
export const seal = (
  box: SecretBoxService,
  tenant: Tenant,
  key: string,
  response: StoredResponse
): StoredResponse => {
  if (response.outcome === "failed" || response.sealed === undefined) return response
  const body = response.body
  if (typeof body !== "object" || body === null || Array.isArray(body)) return response
  const out: Record<string, Json> = { ...(body as Record<string, Json>) }
  for (const field of response.sealed) {
    const value = out[field]
    if (typeof value === "string") {
      out[field] = {
        [SEALED]: box.seal(value, sealContext(tenant.accountId, tenant.livemode, key, field))
      }
    }
  }
  return { outcome: "succeeded", body: out }
}

/** A stored record with its success's sealed fields opened. */
export const openBody = (
  box: SecretBoxService,
  record: IdempotencyRecord
): Effect.Effect<IdempotencyRecord, StorageError> => {
  const response = record.response
  if (response === null || response.outcome === "failed") return Effect.succeed(record)
  const body = response.body
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return Effect.succeed(record)
  const fields = Object.entries(body as Record<string, Json>).filter(
    ([, v]) => typeof v === "object" && v !== null && !Array.isArray(v) && SEALED in v
  )
  if (fields.length === 0) return Effect.succeed(record)
  return Effect.map(
    Effect.forEach(fields, ([field, v]) =>
      Effect.map(
        box.open(
          String((v as Record<string, Json>)[SEALED]),
          sealContext(record.accountId, record.livemode, record.key, field)
        ),
        (plain) => [field, plain] as const
      )
    ),
    (opened) => ({
      ...record,
      response: storedSuccess({ ...(body as Record<string, Json>), ...Object.fromEntries(opened) })
    })
  )
}

/** An idempotency record. Times are Unix milliseconds. */
export interface IdempotencyRecord {
  readonly accountId: string
  readonly livemode: boolean
  readonly key: string
  /** A digest of the request (method, path, body) chosen by the caller. */
  readonly fingerprint: string
  readonly state: "in_progress" | "done"
  readonly response: StoredResponse | null
  readonly createdMs: number
  readonly expiresAtMs: number
}

/** What `begin` found: a fresh claim, or the response of the first request to replay. */
export type Begun =
  | { readonly _tag: "Started"; readonly record: IdempotencyRecord }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }

/** Idempotency records. */
export interface IdempotencyRepositoryService {
  /**
   * Claims `key` for a request with `fingerprint`: `Started` when new (or the old record
   * expired), `Replay` when the same request already finished; fails with
   * `IdempotencyKeyInUse` while it runs and `IdempotencyKeyReused` for another request.
   */
  readonly begin: (
    tenant: Tenant,
    key: string,
    fingerprint: string
  ) => Effect.Effect<Begun, IdempotencyKeyInUse | IdempotencyKeyReused | StorageError>
  /** Stores the response and marks the record done. */
  readonly complete: (
    tenant: Tenant,
    key: string,
    response: StoredResponse
  ) => Effect.Effect<IdempotencyRecord, RecordNotFound | StorageError>
  /**
   * Stores the response of a request that finished after its claim may have been forgotten (a
   * pending charge settled by a retry or the recovery sweeper): completes the record, or writes
   * it done when there is none; a record of another request (another fingerprint) is left.
   * Without a fingerprint it only completes an existing record.
   */
  readonly settle: (
    tenant: Tenant,
    key: string,
    fingerprint: string | null,
    response: StoredResponse
  ) => Effect.Effect<void, StorageError>
  /** Forgets an in-progress claim (the request failed in a way that must not be replayed). */
  readonly release: (tenant: Tenant, key: string) => Effect.Effect<void, StorageError>
  readonly get: (
    tenant: Tenant,
    key: string
  ) => Effect.Effect<IdempotencyRecord, RecordNotFound | StorageError>
  /** Deletes expired records; returns how many. */
  readonly purgeExpired: Effect.Effect<number, StorageError>
}

/** The answer to a claim on a key that is already recorded and not expired. */
export const existing = (
  record: IdempotencyRecord,
  fingerprint: string
): Effect.Effect<Begun, IdempotencyKeyInUse | IdempotencyKeyReused> =>
  record.fingerprint !== fingerprint
    ? Effect.fail(new IdempotencyKeyReused({ key: record.key }))
    : record.state === "in_progress" || record.response === null
      ? Effect.fail(new IdempotencyKeyInUse({ key: record.key }))
      : Effect.succeed({ _tag: "Replay", response: record.response })

/** Idempotency records, as a service: `sql/IdempotencyRepository.ts` and `memory/IdempotencyRepository.ts`. */
export class IdempotencyRepository extends Context.Tag("@levy/storage/IdempotencyRepository")<
  IdempotencyRepository,
  IdempotencyRepositoryService
>() {}
