/**
 * Signatures of what Levy hands out and takes back unchanged (an estimate's quote, docs/quotes.md):
 * an HMAC under the key that seals the store's secrets (SecretBox), so a quote made by one
 * process is accepted by every process sharing that key, and nothing is written to make one.
 */
import { timingSafeEqual } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { SecretBox } from "./SecretBox.js"

/** Bytes of a signature kept: 128 bits, the tag length of HMAC-SHA256 truncated (RFC 2104 §5). */
const LENGTH = 16

export interface SignerService {
  /** The signature of `data` for `purpose`, base64url. */
  readonly sign: (data: string, purpose: string) => string
  /** Whether `signature` is `data`'s for `purpose` (compared in constant time). */
  readonly verify: (data: string, signature: string, purpose: string) => boolean
}

export const make = (box: {
  readonly mac: (data: string, purpose: string) => Buffer
}): SignerService => {
  const tag = (data: string, purpose: string) => box.mac(data, purpose).subarray(0, LENGTH)
  return {
    sign: (data, purpose) => tag(data, purpose).toString("base64url"),
    verify: (data, signature, purpose) => {
      const given = Buffer.from(signature, "base64url")
      return given.length === LENGTH && timingSafeEqual(given, tag(data, purpose))
    }
  }
}

/** The signer, as a service of every store. */
export class Signer extends Context.Tag("@levy/storage/Signer")<Signer, SignerService>() {
  /** Over the store's SecretBox. */
  static readonly layer = Layer.effect(Signer, Effect.map(SecretBox, make))
}
