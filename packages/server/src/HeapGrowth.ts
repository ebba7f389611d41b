/**
 * How far V8 lets garbage grow before a full collection, set by `levy` at start-up
 * (docs/performance.md "Memory"). With no memory pressure V8 lets the old generation reach up
 * to four times what survived the last full collection. A server under load promotes the
 * state of every request in flight (it outlives two young collections), which is garbage
 * soon after: the heap reached 111 MB with 40 MB of it live. Twice the live heap
 * bounds that; the extra full collections (a 20–45 ms pause for each ~40 MB promoted, about one
 * every 2 s at 200 charges/s) cost 1–2 % of a saturated server's CPU. An operator's own
 * `node --heap-growing-percent=…` wins.
 */
import { setFlagsFromString } from "node:v8"

/** The old generation may grow to (100 + this) % of the heap live after a full collection. */
export const GROWING_PERCENT = 100

/** Whether node's command line (`process.execArgv`) already sets the growing factor. */
export const isSetBy = (execArgv: ReadonlyArray<string>): boolean =>
  execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))

/**
 * Sets V8's growing factor for this process, unless node was started with one. V8 reads it at
 * each full collection: set it before the one that module loading brings.
 */
export const apply = (execArgv: ReadonlyArray<string> = process.execArgv): void => {
  if (!isSetBy(execArgv)) setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT}`)
}
