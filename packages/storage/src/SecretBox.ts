/**
 * Encryption of stored secrets (webhook signing secrets): AES-256-GCM with a key held
 * outside the database, bound to the record it belongs to (additional data), so a
 * database dump alone reveals no secret and a ciphertext cannot be moved to another row.
 * The same key, through a subkey per purpose, authenticates what Levy hands out and takes
 * back (quotes, `Signer.ts`), so every process that shares the key accepts them.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto"
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  unlinkSync,
  writeFileSync
} from "node:fs"
import { dirname } from "node:path"
import { Config, Context, Effect, Layer, Option, Redacted } from "effect"
import { StorageError } from "./StorageError.js"

/** Seals and opens secrets. */
export interface SecretBoxService {
  /** `v1.<base64 iv|tag|ciphertext>` of `plain`, bound to `context`. */
  readonly seal: (plain: string, context: string) => string
  /** The plaintext, or a `StorageError` when the key or context is wrong. */
  readonly open: (sealed: string, context: string) => Effect.Effect<string, StorageError>
  /** HMAC-SHA256 of `data` under a subkey of the box's key for `purpose` (HKDF). */
  readonly mac: (data: string, purpose: string) => Buffer
}

/** A box for a 32-byte key. */
export const make = (key: Uint8Array): SecretBoxService => {
  if (key.length !== 32) throw new Error("SecretBox: the key must be 32 bytes")
  const subkeys = new Map<string, Buffer>()
  const subkey = (purpose: string) => {
    let found = subkeys.get(purpose)
    if (found === undefined) {
      found = Buffer.from(hkdfSync("sha256", key, "", `levy ${purpose}`, 32))
      subkeys.set(purpose, found)
    }
    return found
  }
  return {
    mac: (data, purpose) => createHmac("sha256", subkey(purpose)).update(data).digest(),
    seal: (plain, context) => {
      const iv = randomBytes(12)
      const cipher = createCipheriv("aes-256-gcm", key, iv)
      cipher.setAAD(Buffer.from(context))
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()])
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`
    },
    open: (sealed, context) =>
      Effect.try({
        try: () => {
          if (!sealed.startsWith("v1.")) throw new Error("unknown format")
          const raw = Buffer.from(sealed.slice(3), "base64")
          const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12))
          decipher.setAAD(Buffer.from(context))
          decipher.setAuthTag(raw.subarray(12, 28))
          return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString(
            "utf8"
          )
        },
        catch: (cause) => new StorageError({ message: "cannot decrypt a stored secret", cause })
      })
  }
}

/**
 * Reads a base64 key from `path`, creating it (mode 0600) with a random key when missing.
 * Created atomically: the key is written whole to a file of its own, then linked into place,
 * which fails if another process got there first (its key is then read). No process ever
 * reads a half-written key, and two starting at once end up with the same one.
 */
export const keyFromFile = (path: string): Uint8Array => {
  if (!existsSync(path)) {
    // Owner only, as the embedded store makes its directories (the data directory, `.levy`).
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    const draft = `${path}.${process.pid}.${randomBytes(6).toString("hex")}`
    writeFileSync(draft, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 })
    chmodSync(draft, 0o600)
    try {
      linkSync(draft, path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    } finally {
      unlinkSync(draft)
    }
  }
  return Buffer.from(readFileSync(path, "utf8").trim(), "base64")
}

/** The secret box, as a service. */
export class SecretBox extends Context.Tag("@levy/storage/SecretBox")<
  SecretBox,
  SecretBoxService
>() {
  /** A box for a given key. */
  static readonly layerKey = (key: Uint8Array) => Layer.sync(SecretBox, () => make(key))

  /** A box with a random key (in-memory stores and tests: secrets die with the process). */
  static readonly layerRandom = Layer.sync(SecretBox, () => make(randomBytes(32)))

  /**
   * `LEVY_SECRET_KEY` (base64, 32 bytes) when set; otherwise the key file `fallbackFile`
   * (created on first use), or a random key when no file is given.
   */
  static readonly layerConfig = (fallbackFile?: string) =>
    Layer.effect(
      SecretBox,
      Effect.gen(function* () {
        const configured = yield* Config.option(Config.redacted("LEVY_SECRET_KEY"))
        if (Option.isSome(configured)) {
          return make(Buffer.from(Redacted.value(configured.value), "base64"))
        }
        return make(fallbackFile === undefined ? randomBytes(32) : keyFromFile(fallbackFile))
      })
    )
}
