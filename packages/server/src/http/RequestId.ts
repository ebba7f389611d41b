/**
 * Request ids: `req_` + 24 hex digits, random, named in the request's log lines. One `randomBytes` call per request was ~2% of
 * the server's time under load; the bytes are drawn 4 KiB at a time and used once each, so
 * the ids stay as random as before.
 */
import { randomBytes } from "node:crypto"
import { type Effect, FiberRef, HashMap } from "effect"

const POOL_BYTES = 4096
const ID_BYTES = 12
let pool = randomBytes(POOL_BYTES)
let offset = 0

/** A fresh request id: `req_` + 24 hex digits. */
export const next = (): string => {
  if (offset + ID_BYTES > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES)
    offset = 0
  }
  const id = pool.toString("hex", offset, offset + ID_BYTES)
  offset += ID_BYTES
  return `req_${id}`
}

/**
 * Names the request in every later log line of the fiber serving it (and of fibers it forks).
 * The fiber serves this one request, so the annotation is set on it for good: scoping it
 * with `Effect.annotateLogs` cost as much as the whole estimate.
 */
export const annotateLogs = (requestId: string): Effect.Effect<void> =>
  FiberRef.update(FiberRef.currentLogAnnotations, HashMap.set("requestId", requestId as unknown))
