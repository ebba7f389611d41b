/**
 * The storage-backed `KeyResolver`: the bearer secret is looked up by its SHA-256 hash
 * through `AccountRepository.findKey` (the constant-time comparison is in storage). Kind
 * and mode come from the secret's prefix and must agree with what was stored; a key whose
 * prefix and record disagree resolves to nothing. Last use is recorded at most once per
 * `touchEvery` per key (so the embedded store, which serializes every query, is not written
 * on every request); a failed touch is logged and does not fail the request.
 */
import { ApiError, CurrentKey } from "@levy/api"
import { AccountRepository } from "@levy/storage"
import { Clock, Duration, Effect, Layer, Option } from "effect"
import { KeyResolver, type KeyResolverService } from "./KeyResolver.js"

export interface Options {
  /** Minimum time between two last-used writes for one key (default 1 minute; 0 = every request). */
  readonly touchEvery?: Duration.DurationInput | undefined
}

/** The resolver over the `AccountRepository` in context. */
export const make = (options: Options = {}) =>
  Effect.gen(function* () {
    const accounts = yield* AccountRepository
    const touchEveryMs = Duration.toMillis(options.touchEvery ?? Duration.minutes(1))
    const lastTouched = new Map<string, number>()
    const unavailable = new ApiError.ServiceUnavailableError({
      message: "The service is temporarily unavailable; please retry."
    })
    const touch = (accountId: string, keyId: string) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const mapKey = `${accountId}/${keyId}`
        const previous = lastTouched.get(mapKey)
        if (previous !== undefined && now - previous < touchEveryMs) return
        lastTouched.set(mapKey, now)
        yield* accounts
          .touchKey(accountId, keyId, Math.floor(now / 1000))
          .pipe(Effect.catchAll((e) => Effect.logWarning("cannot record a key's last use", e)))
      })
    const service: KeyResolverService = {
      resolve: (secret) => {
        const classified = CurrentKey.classify(secret)
        if (classified === undefined) return Effect.succeed(Option.none())
        return accounts.findKey(secret).pipe(
          Effect.catchAll((e) =>
            Effect.logWarning("key lookup failed", e).pipe(
              Effect.zipRight(Effect.fail(unavailable))
            )
          ),
          Effect.flatMap((found) => {
            if (Option.isNone(found)) return Effect.succeed(Option.none())
            const key = found.value
            const mode: CurrentKey.Mode = key.livemode ? "live" : "test"
            if (key.kind !== classified.kind || mode !== classified.mode) {
              return Effect.succeed(Option.none())
            }
            const resolved: CurrentKey.Key = {
              accountId: key.accountId,
              keyId: key.id,
              kind: key.kind,
              mode
            }
            return touch(key.accountId, key.id).pipe(Effect.as(Option.some(resolved)))
          })
        )
      }
    }
    return service
  })

/** The storage-backed resolver as a layer; needs an `AccountRepository`. */
export const layer = (options: Options = {}): Layer.Layer<KeyResolver, never, AccountRepository> =>
  Layer.effect(KeyResolver, make(options))
