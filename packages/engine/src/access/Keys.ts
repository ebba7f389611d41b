/**
 * API key secrets (docs/design.md §5): one of the four prefixes followed by a random part of
 * 32 base-62 characters (~190 bits) drawn from `crypto.randomBytes`. The prefix says the
 * key's kind and mode; the random part is what makes it a secret.
 */
import { randomBytes } from "node:crypto"

/** What a key may do: a secret key everything, a publishable key the few calls a browser makes. */
export type KeyKind = "secret" | "publishable"

/** Which data a key sees: a development key test mode, a production key live mode. */
export type Mode = "test" | "live"

/** The four kinds of key an account holds, by the name used in files and on the CLI. */
export const kinds = ["secretDev", "publishableDev", "secretProd", "publishableProd"] as const
export type Kind = (typeof kinds)[number]

/** Prefix, key kind and mode of each of the four kinds. */
export const spec: Readonly<
  Record<Kind, { readonly prefix: string; readonly kind: KeyKind; readonly mode: Mode }>
> = {
  secretDev: { prefix: "sk_dev_service_", kind: "secret", mode: "test" },
  publishableDev: { prefix: "pk_dev_service_", kind: "publishable", mode: "test" },
  secretProd: { prefix: "sk_prod_service_", kind: "secret", mode: "live" },
  publishableProd: { prefix: "pk_prod_service_", kind: "publishable", mode: "live" }
}

/** Length of the random part. */
export const RANDOM_LENGTH = 32

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** `length` uniformly random base-62 characters (bytes ≥ 248 are rejected, so no bias). */
export const random62 = (length: number): string => {
  let out = ""
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62]
    }
  }
  return out
}

/** A fresh secret of the given kind. */
export const generate = (kind: Kind): string => `${spec[kind].prefix}${random62(RANDOM_LENGTH)}`

/** Whether a CLI/file name is one of the four kinds. */
export const isKind = (name: string): name is Kind =>
  (kinds as ReadonlyArray<string>).includes(name)
