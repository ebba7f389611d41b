/**
 * A test-only crash point between a processor's answer and Levy's record of it (docs/processors.md,
 * "How recovery works"): with `LEVY_TEST_CRASH_AFTER_PROCESSOR=1` the process kills itself
 * (SIGKILL: no cleanup, as a power cut) right after the processor answered a charge or refund
 * and before it is settled, so crash tests can prove recovery. Set to an Idempotency-Key
 * instead of `1`, it kills only for the record made under that key, so a crash-armed server's
 * recovery sweeper may settle other records without dying. Never set it in production.
 */
import { Effect } from "effect"

export const ENV = "LEVY_TEST_CRASH_AFTER_PROCESSOR"

/** Dies here when the crash point is armed for every record or for this record's key. */
export const afterProcessor = (idempotencyKey: string | null): Effect.Effect<void> =>
  Effect.sync(() => {
    const armed = process.env[ENV]
    if (armed === "1" || (armed !== undefined && armed !== "" && armed === idempotencyKey)) {
      process.kill(process.pid, "SIGKILL")
    }
  })
