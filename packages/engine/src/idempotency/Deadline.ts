/**
 * How long a write holding an Idempotency-Key may run, at every door (the HTTP edge and
 * in-process `Keyed`).
 */
import { Duration } from "effect"

/**
 * The longest a request holding a key may run before it is cut off with a 503 and its claim
 * released. It stays well inside `CLAIM_LEASE_MS`, so a claim still in progress after the
 * lease belongs to a process that died, never to a request still running.
 */
export const DEADLINE = Duration.seconds(20)
