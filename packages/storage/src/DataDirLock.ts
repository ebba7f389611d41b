/**
 * One process at a time on an embedded data directory: PGlite has no locking of its own, so a
 * second process (`levy keys create` while `levy serve` runs) would open the same files, write
 * into a database the first keeps in memory, and its work would be lost. The first process
 * holds `<dir>/levy.lock` (its pid, command and start time) for as long as it has the store
 * open; a second one fails, saying which process holds it and what to do instead. A lock left
 * by a process that no longer runs is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { StorageError } from "./StorageError.js"

export const FILE = "levy.lock"

/** What the lock file says about its holder. */
export interface Holder {
  readonly pid: number
  readonly command: string
  readonly since: string
}

/** Holds the lock on `dir` for the scope; fails with a StorageError naming the holder. */
export const acquire = (dir: string) =>
  Effect.acquireRelease(
    Effect.try({
      try: () => take(join(dir, FILE)),
      catch: (e) =>
        e instanceof StorageError
          ? e
          : new StorageError({ message: `cannot lock the data directory ${dir}`, cause: e })
    }),
    (path) => Effect.sync(() => release(path))
  )

const me = (): Holder => ({
  pid: process.pid,
  command: ["levy", ...process.argv.slice(2)].join(" ").slice(0, 200),
  since: new Date().toISOString()
})

const take = (path: string, attempt = 0): string => {
  try {
    const fd = openSync(path, "wx", 0o600)
    writeSync(fd, `${JSON.stringify(me())}\n`)
    closeSync(fd)
    return path
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw e
  }
  const holder = readHolder(path)
  if (holder !== undefined && holder.pid !== process.pid && running(holder.pid)) {
    throw new StorageError({ message: inUse(path, holder) })
  }
  // The holder is gone (or the file is unreadable): its lock is stale.
  rmSync(path, { force: true })
  return take(path, attempt + 1)
}

const inUse = (path: string, holder: Holder): string =>
  `The embedded data directory ${join(path, "..")} is in use by process ${holder.pid} (\`${holder.command}\`, since ${holder.since}). ` +
  "The embedded store allows one process at a time. A `levy serve` runs levy commands itself through the administration " +
  "socket levy.sock in the directory above it, and none answered there (its start-up output says why, when it refused to open it): " +
  "stop that process first, or, to run several processes, use PostgreSQL (DATABASE_URL)."

/** The process holding the lock on `dir`, when it is another one that runs (else the lock is free or stale). */
export const heldBy = (dir: string): Holder | undefined => {
  const holder = readHolder(join(dir, FILE))
  return holder !== undefined && holder.pid !== process.pid && running(holder.pid)
    ? holder
    : undefined
}

const readHolder = (path: string): Holder | undefined => {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<Holder>
    return typeof parsed.pid === "number"
      ? {
          pid: parsed.pid,
          command: String(parsed.command ?? "levy"),
          since: String(parsed.since ?? "")
        }
      : undefined
  } catch {
    return undefined
  }
}

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Removes the lock if it is still ours. */
const release = (path: string) => {
  if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true })
}
