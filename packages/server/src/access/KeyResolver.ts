/**
 * Bearer key → the key it authenticates, shaped like `AccountRepository.findKey` in
 * @levy/storage (secret in, `Option` of the key out) so the storage-backed resolver can
 * replace the in-memory one without touching the edge or the Authorization middleware.
 */
import { type ApiError, CurrentKey } from "@levy/api"
import { Context, Effect, Layer, Option } from "effect"

/** The key a secret resolves to. */
export type ResolvedKey = CurrentKey.Key

export interface KeyResolverService {
  /** The unrevoked key whose secret this is; a store failure is a 503. */
  readonly resolve: (
    secret: string
  ) => Effect.Effect<Option.Option<ResolvedKey>, ApiError.ServiceUnavailableError>
}

export class KeyResolver extends Context.Tag("@levy/server/KeyResolver")<
  KeyResolver,
  KeyResolverService
>() {}

/** One entry of a static key table: the full secret and whom it belongs to. */
export interface StaticKey {
  readonly secret: string
  readonly accountId: string
  readonly keyId: string
}

/**
 * A resolver over a fixed table (config or tests). Kind and mode come from the secret's
 * prefix (docs/design.md §5); an entry without one of the four prefixes is refused at build time.
 */
export const memory = (keys: ReadonlyArray<StaticKey>): KeyResolverService => {
  const table = new Map<string, ResolvedKey>()
  for (const entry of keys) {
    const classified = CurrentKey.classify(entry.secret)
    if (classified === undefined) {
      throw new Error(`Static key ${entry.keyId} has none of the four key prefixes`)
    }
    table.set(entry.secret, { accountId: entry.accountId, keyId: entry.keyId, ...classified })
  }
  return { resolve: (secret) => Effect.succeed(Option.fromNullable(table.get(secret))) }
}

/** The in-memory resolver as a layer. */
export const layerMemory = (keys: ReadonlyArray<StaticKey>): Layer.Layer<KeyResolver> =>
  Layer.sync(KeyResolver, () => memory(keys))
