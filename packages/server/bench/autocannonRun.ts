/**
 * Runs autocannon with the options given as JSON in argv[2] and prints its result as JSON:
 * the load generator of the HTTP benchmark, in its own process. The programmatic API rather
 * than autocannon's CLI, whose argument parser cannot take `[<id>]` in a header value (each
 * charge needs its own Idempotency-Key).
 */
import { createRequire } from "node:module"

/** The part of autocannon's API used here (it ships no types). */
type Autocannon = (options: Record<string, unknown>) => Promise<unknown>

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon
const result = await autocannon(JSON.parse(process.argv[2] ?? "{}") as Record<string, unknown>)
process.stdout.write(JSON.stringify(result))
