/** Charge creation under load: a bounded pool of workers, each request with its own Idempotency-Key. */
import { type Outcome, send } from "./Http.js"

export interface Attempt {
  readonly key: string
  readonly amount: number
  /** The charge id of a 200, else undefined (not acknowledged). */
  chargeId: string | undefined
  last: Outcome | undefined
}

/** The body of the charge for `key`: the key rides in the metadata so the database can be grouped by it. */
export const chargeBody = (key: string, amount: number) => ({
  amount,
  currency: "usd",
  source: "tok_visa",
  metadata: { idempotency_key: key }
})

/** Sends one create for `attempt` (same key and body each time); records a 200. */
export const createOnce = async (base: string, secret: string, attempt: Attempt) => {
  const outcome = await send(base, "POST", "/v1/charges", {
    key: secret,
    body: chargeBody(attempt.key, attempt.amount),
    headers: { "idempotency-key": attempt.key }
  })
  attempt.last = outcome
  if (outcome.kind === "answer" && outcome.status === 200) {
    attempt.chargeId = (outcome.body as { id: string }).id
  }
  return outcome
}

/** Runs `work` over `items` with `concurrency` workers, stopping early when `stop()` holds. */
export const pool = async <A>(
  items: ReadonlyArray<A>,
  concurrency: number,
  work: (item: A) => Promise<unknown>,
  stop: () => boolean = () => false
) => {
  let next = 0
  const worker = async () => {
    while (next < items.length && !stop()) {
      const item = items[next++]!
      await work(item)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}
