/**
 * The `service-signature` header of a delivery, made with node:crypto: the same value as
 * `WebhookSignature.sign` in @levy/api (WebhookSigner.test.ts holds them equal), which uses
 * Web Crypto so receivers in any runtime can verify. On the dispatcher's hot path Web Crypto
 * cost an imported key, a promise and a hop to the thread pool per secret and delivery
 * (docs/performance.md "Webhook delivery"); an HMAC here is a synchronous call.
 */
import { createHmac } from "node:crypto"

/**
 * The header for `body` sent at `timestamp` (Unix seconds): `t=<t>`, then one `v1=` per
 * secret in the order given (current secret first), each the hex HMAC-SHA256 keyed with the
 * secret's UTF-8 bytes of `"<t>.<body>"`.
 */
export const sign = (secrets: ReadonlyArray<string>, timestamp: number, body: string): string => {
  const t = Math.floor(timestamp)
  let header = `t=${t}`
  for (const secret of secrets) {
    header += `,v1=${createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex")}`
  }
  return header
}
