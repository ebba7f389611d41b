/**
 * Webhook signatures (docs/design.md §8): the `service-signature` header is
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, with one `v1=` per signing
 * secret (two while a secret rolls). The server signs with `sign`; receivers check with
 * `verifyWebhook`. Only Web Crypto (`globalThis.crypto.subtle`), so the same code runs in
 * Node ≥ 20, browsers, Deno and edge runtimes — hence both functions are async.
 */

/** The header that carries the signature. */
export const SIGNATURE_HEADER = "service-signature"

/** The header that carries the event id (the same on every retry: use it to drop duplicates). */
export const WEBHOOK_ID_HEADER = "webhook-id"

/** How far (seconds) a signature's timestamp may be from the receiver's clock by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300

/** A delivered event as parsed from the body (the wire `Event`, not decoded further). */
export interface WebhookEvent {
  readonly id: string
  readonly object: "event"
  readonly type: string
  readonly data: { readonly object: unknown }
  readonly created: number
  readonly livemode: boolean
}

/** Why a delivery was not accepted. */
export type WebhookVerificationReason =
  | "missing_header"
  | "bad_format"
  | "no_matching_signature"
  | "timestamp_outside_tolerance"

/** A delivery that must be rejected (answer 400). */
export class WebhookVerificationError extends Error {
  readonly _tag = "WebhookVerificationError"
  override readonly name = "WebhookVerificationError"
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string
  ) {
    super(message)
  }
}

const encoder = new TextEncoder()

/** The bytes signed: `"<t>."` followed by the raw body, byte for byte. */
const signedPayload = (timestamp: number, rawBody: string | Uint8Array): Uint8Array => {
  const prefix = encoder.encode(`${timestamp}.`)
  const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody
  const out = new Uint8Array(prefix.length + body.length)
  out.set(prefix, 0)
  out.set(body, prefix.length)
  return out
}

/** The secret string itself (UTF-8) is the HMAC key, as with other `whsec_` schemes. */
const hmacKey = (secret: string, usage: "sign" | "verify") =>
  globalThis.crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    [usage]
  )

const toHex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("")

/** 32 bytes from 64 hex digits, or undefined when it is not a SHA-256 MAC in hex. */
const fromHex = (hex: string): Uint8Array | undefined => {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return undefined
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16)
  return out
}

/**
 * The header value for `rawBody` sent at `timestamp` (Unix seconds), one `v1=` per secret
 * in the order given (current secret first).
 */
export const sign = async (
  secrets: ReadonlyArray<string>,
  timestamp: number,
  rawBody: string | Uint8Array
): Promise<string> => {
  const t = Math.floor(timestamp)
  const payload = signedPayload(t, rawBody)
  const macs = await Promise.all(
    secrets.map(async (secret) =>
      toHex(await globalThis.crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), payload))
    )
  )
  return [`t=${t}`, ...macs.map((mac) => `v1=${mac}`)].join(",")
}

/** A parsed header: its timestamp and every `v1` MAC (other schemes are ignored). */
interface ParsedHeader {
  readonly timestamp: number
  readonly v1: ReadonlyArray<string>
}

const parseHeader = (header: string): ParsedHeader | undefined => {
  let timestamp: number | undefined
  const v1: Array<string> = []
  for (const part of header.split(",")) {
    const eq = part.indexOf("=")
    if (eq < 0) return undefined
    const key = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    if (key === "t") {
      if (!/^\d{1,12}$/.test(value) || timestamp !== undefined) return undefined
      timestamp = Number(value)
    } else if (key === "v1") {
      v1.push(value)
    }
  }
  return timestamp === undefined || v1.length === 0 ? undefined : { timestamp, v1 }
}

/** Whether any `v1` MAC is the HMAC of `payload` with `secret` (compared in constant time by Web Crypto). */
const anyMatches = async (
  secret: string,
  payload: Uint8Array,
  macs: ReadonlyArray<string>
): Promise<boolean> => {
  const key = await hmacKey(secret, "verify")
  let matched = false
  // Every entry is checked (no early exit), so timing does not tell which one matched.
  for (const mac of macs) {
    const bytes = fromHex(mac)
    if (bytes !== undefined && (await globalThis.crypto.subtle.verify("HMAC", key, bytes, payload)))
      matched = true
  }
  return matched
}

/**
 * Checks a delivery: `rawBody` exactly as received (before any JSON parsing), the
 * `service-signature` header and the endpoint's signing secret. Resolves to the event, or
 * rejects with a `WebhookVerificationError` — answer 400 then. `nowSeconds` is for tests.
 */
export const verifyWebhook = async (
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
  nowSeconds: number = Date.now() / 1000
): Promise<WebhookEvent> => {
  if (signatureHeader === null || signatureHeader === undefined || signatureHeader === "") {
    throw new WebhookVerificationError(
      "missing_header",
      `The ${SIGNATURE_HEADER} header is missing.`
    )
  }
  const parsed = parseHeader(signatureHeader)
  if (parsed === undefined) {
    throw new WebhookVerificationError(
      "bad_format",
      `The ${SIGNATURE_HEADER} header is not of the form t=<unix seconds>,v1=<hex>[,v1=<hex>…].`
    )
  }
  if (!(await anyMatches(secret, signedPayload(parsed.timestamp, rawBody), parsed.v1))) {
    throw new WebhookVerificationError(
      "no_matching_signature",
      "No v1 signature matches the body with this secret (wrong secret, or the body was changed)."
    )
  }
  // Checked after the MAC, so the timestamp is known to be the sender's: this stops replays.
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) {
    throw new WebhookVerificationError(
      "timestamp_outside_tolerance",
      `The signature's timestamp is more than ${toleranceSeconds} s from now (a replay, or a skewed clock).`
    )
  }
  const text = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody)
  try {
    return JSON.parse(text) as WebhookEvent
  } catch {
    throw new WebhookVerificationError("bad_format", "The signed body is not JSON.")
  }
}
