/**
 * An estimate's id is its quote, signed (docs/quotes.md): the account and mode it was made for,
 * the amount, currency and region, the fee shown, the card it was quoted for and when it
 * expires, with an HMAC under the store's key (`Signer`). A charge that names it reads all of
 * that back and trusts it only if the signature verifies, so an estimate writes nothing and
 * stays as fast as before, and every process sharing the key honours every other's quotes.
 * Whether a quote was already used is the charge's to record (at most one live charge per quote).
 */
import { randomBytes } from "node:crypto"
import type { Quote } from "@levy/api"
import type { SignerService } from "@levy/storage"
import { Either } from "effect"

/** What a quote binds. */
export interface Claims {
  readonly accountId: string
  readonly livemode: boolean
  readonly amount: number
  /** Lower case. */
  readonly currency: string
  /** The region the fee was decided in (the request's, else the account's default), or null. */
  readonly region: string | null
  /** The fee the shopper was shown, minor units. */
  readonly fee: number
  readonly card: Quote.Card | null
  /** Unix seconds. */
  readonly expiresAt: number
}

/** Why an id is not a quote this server can read: made up, or changed after it was issued. */
export type Unreadable = "unknown" | "altered"

/**
 * A quote's own part: a random prefix per process and a counter, unique across processes
 * without a call for random bytes per estimate (a third of a quote's cost, measured).
 */
const PROCESS_NONCE = randomBytes(6).toString("base64url")
let issued = 0
const nonce = () => `${PROCESS_NONCE}${(issued++).toString(36)}`

/** The signature's purpose: a subkey of its own, so no other signature can pass for a quote's. */
const PURPOSE = "quote v1"
const PREFIX = "est_"
const VERSION = 1

/** The id of a quote of `claims`. */
export const issue = (signer: SignerService, claims: Claims): string => {
  const card = claims.card
  const payload = Buffer.from(
    JSON.stringify([
      VERSION,
      claims.accountId,
      claims.livemode ? 1 : 0,
      claims.amount,
      claims.currency,
      claims.region,
      claims.fee,
      card === null ? null : [card.funding, card.network, card.country, card.category],
      claims.expiresAt,
      // Two quotes of the same inputs are two quotes: each may be used once.
      nonce()
    ])
  ).toString("base64url")
  return `${PREFIX}${payload}.${signer.sign(payload, PURPOSE)}`
}

/** The claims of quote `id`, or why it is none: not one of ours, or not as it was issued. */
export const read = (signer: SignerService, id: string): Either.Either<Claims, Unreadable> => {
  const dot = id.lastIndexOf(".")
  if (!id.startsWith(PREFIX) || dot < 0) return Either.left("unknown")
  const payload = id.slice(PREFIX.length, dot)
  // Not a quote's fields at all: an id nobody issued. A quote's fields whose signature does
  // not verify: a quote changed after it was issued (or by another key).
  const claims = decode(payload)
  if (claims === undefined) return Either.left("unknown")
  return signer.verify(payload, id.slice(dot + 1), PURPOSE)
    ? Either.right(claims)
    : Either.left("altered")
}

const isCard = (card: unknown): card is [string, string | null, string | null, string] =>
  Array.isArray(card) &&
  card.length === 4 &&
  typeof card[0] === "string" &&
  (card[1] === null || typeof card[1] === "string") &&
  (card[2] === null || typeof card[2] === "string") &&
  typeof card[3] === "string"

const decode = (payload: string): Claims | undefined => {
  let fields: unknown
  try {
    fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
  } catch {
    return undefined
  }
  if (!Array.isArray(fields) || fields[0] !== VERSION || fields.length !== 10) return undefined
  const [, accountId, livemode, amount, currency, region, fee, card, expiresAt] = fields
  // Read before the signature is checked: every field is checked for its shape, so what an
  // altered id holds is never trusted as a quote's.
  if (
    typeof accountId !== "string" ||
    (livemode !== 0 && livemode !== 1) ||
    !Number.isSafeInteger(amount) ||
    typeof currency !== "string" ||
    (region !== null && typeof region !== "string") ||
    !Number.isSafeInteger(fee) ||
    !Number.isSafeInteger(expiresAt) ||
    (card !== null && !isCard(card))
  ) {
    return undefined
  }
  return {
    accountId: accountId as string,
    livemode: livemode === 1,
    amount: amount as number,
    currency: currency as string,
    region: region as string | null,
    fee: fee as number,
    card:
      card === null
        ? null
        : {
            funding: card[0] as Quote.Card["funding"],
            network: card[1] as string | null,
            country: card[2] as string | null,
            category: card[3] as Quote.Card["category"]
          },
    expiresAt: expiresAt as number
  }
}
