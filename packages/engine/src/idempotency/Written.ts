/**
 * What a write did with its request's claim, returned beside its result so that whoever took
 * the claim (the HTTP edge, `Levy` in-process) decides from the result what is left to do:
 * `stored` — the write stored the response with itself (replayed as it is); `released` — the
 * write let the claim go on purpose (a payment the processor left pending: a retry resumes
 * it, nothing to replay); `untouched` — nothing was done with it, so its taker stores a
 * success and forgets the claim after a failure.
 */
import type { Option } from "effect"
import type { Claim } from "./Claim.js"

export type Recording = "stored" | "released" | "untouched"

export interface Written<A> {
  readonly value: A
  readonly recording: Recording
}

/** `value`, whose response the write stored for `claim` (nothing to store without a claim). */
export const stored = <A>(claim: Option.Option<Claim>, value: A): Written<A> => ({
  value,
  recording: claim._tag === "Some" ? "stored" : "untouched"
})

/** `value`, whose claim the write released. */
export const released = <A>(value: A): Written<A> => ({ value, recording: "released" })

/** `value`, whose write did nothing with the claim: its taker stores the answer. */
export const untouched = <A>(value: A): Written<A> => ({ value, recording: "untouched" })

/** Whether the claim's taker still has to store or forget it. */
export const isSettled = (recording: Recording) => recording !== "untouched"
