/**
 * How far V8 lets garbage grow before a full collection, set by `levy` at start-up
 * (docs/performance.md "Memory"). With no memory pressure V8 lets the old generation reach up
 * to four times what survived the last full collection. A server under load promotes the
 * state of every request in flight (it outlives two young collections), which is garbage
 * soon after: with ~40 MB live, the process carried up to ~110 MB of it. Twice the live heap
 * bounds that; the extra full collections (~20 ms of marking, mostly concurrent, for each
 * ~40 MB promoted) cost about 1 % of the CPU of a saturated server. An operator's own
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
