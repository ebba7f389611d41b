/**
 * A test-only crash point between a processor's answer and Levy's record of it (docs/processors.md,
 * "How recovery works"): with `LEVY_TEST_CRASH_AFTER_PROCESSOR=1` the process kills itself
 * (SIGKILL: no cleanup, as a power cut) right after the processor answered a charge or refund
 * and before it is settled, so crash tests can prove recovery. Never set it in production.
 */
import { Effect } from "effect"

export const ENV = "LEVY_TEST_CRASH_AFTER_PROCESSOR"

/** Dies here when the crash point is armed. */
export const afterProcessor: Effect.Effect<void> = Effect.sync(() => {
  if (process.env[ENV] === "1") process.kill(process.pid, "SIGKILL")
})
