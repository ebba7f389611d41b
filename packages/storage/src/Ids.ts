/**
 * Prefixed identifiers (`ch_`, `evt_`, ...), Stripe style. Ids are time-ordered within a
 * process (millisecond time, then a sequence, then randomness) so that ordering by
 * `(created, id)` is also creation order, and lowercase base-36 so that byte order and
 * every collation agree.
 */
import { randomBytes } from "node:crypto"
import { Context, Effect, Layer } from "effect"

/** Makes new identifiers; replaced in tests for deterministic ids. */
export class Ids extends Context.Tag("@levy/storage/Ids")<
  Ids,
  { readonly make: (prefix: string) => Effect.Effect<string> }
>() {
  /** Time-ordered random ids. */
  static readonly layer = Layer.sync(Ids, () => {
    const next = timeOrdered()
    return { make: (prefix) => Effect.sync(() => next(prefix)) }
  })

  /** Deterministic ids: `<prefix>_<zero-padded counter>`, counting from 1. */
  static readonly layerSequential = Layer.sync(Ids, () => {
    let n = 0
    return { make: (prefix) => Effect.sync(() => `${prefix}_${String(++n).padStart(16, "0")}`) }
  })
}

/** A generator of time-ordered ids: `<prefix>_<ms:9><seq:4><random:11>`, all base 36. */
export const timeOrdered = (): ((prefix: string) => string) => {
  let lastMs = 0
  let seq = 0
  return (prefix) => {
    const now = Date.now()
    if (now > lastMs) {
      lastMs = now
      seq = 0
    } else {
      seq++
    }
    const time = lastMs.toString(36).padStart(9, "0")
    const sequence = (seq % 36 ** 4).toString(36).padStart(4, "0")
    return `${prefix}_${time}${sequence}${random36(11)}`
  }
}

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"

// Random bytes come from the system in blocks: one call per ~370 ids, not one per id.
const POOL_SIZE = 4096
let pool = randomBytes(POOL_SIZE)
let offset = 0

/** `length` random base-36 characters (each from one random byte below 252, so uniform). */
export const random36 = (length: number): string => {
  let out = ""
  while (out.length < length) {
    if (offset === POOL_SIZE) {
      pool = randomBytes(POOL_SIZE)
      offset = 0
    }
    const b = pool[offset++]!
    if (b < 252) out += ALPHABET[b % 36]
  }
  return out
}
