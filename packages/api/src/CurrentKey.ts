/**
 * The API key a request was authenticated with, as the `Authorization` middleware provides
 * it to handlers (specification "Authentication", docs/design.md §5): its account, its kind and
 * its mode. Nothing crosses accounts or modes.
 */
import { Context, Schema } from "effect"

/** Secret keys have full access; publishable keys may call three endpoints only. */
export const KeyKind = Schema.Literal("secret", "publishable")
export type KeyKind = typeof KeyKind.Type

/** Development keys run in test mode, production keys in live mode. */
export const Mode = Schema.Literal("test", "live")
export type Mode = typeof Mode.Type

/** The authenticated key. */
export interface Key {
  readonly accountId: string
  /** The key's own id (never its secret): a pending fee change must be approved by another key. */
  readonly keyId: string
  readonly kind: KeyKind
  readonly mode: Mode
}

/** The key of the current request. */
export class CurrentKey extends Context.Tag("@levy/api/CurrentKey")<CurrentKey, Key>() {}

/** The four key prefixes and what they mean. */
export const prefixes: ReadonlyArray<{
  readonly prefix: string
  readonly kind: KeyKind
  readonly mode: Mode
}> = [
  { prefix: "sk_dev_service_", kind: "secret", mode: "test" },
  { prefix: "sk_prod_service_", kind: "secret", mode: "live" },
  { prefix: "pk_dev_service_", kind: "publishable", mode: "test" },
  { prefix: "pk_prod_service_", kind: "publishable", mode: "live" }
]

/** The kind and mode a key's prefix announces, or undefined when it has none of the four. */
export const classify = (
  token: string
): { readonly kind: KeyKind; readonly mode: Mode } | undefined => {
  const found = prefixes.find((p) => token.startsWith(p.prefix) && token.length > p.prefix.length)
  return found === undefined ? undefined : { kind: found.kind, mode: found.mode }
}

/** Whether the key sees live-mode data. */
export const livemode = (key: Key): boolean => key.mode === "live"
