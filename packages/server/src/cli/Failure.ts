/**
 * A store that cannot be opened, said in one line a person can act on: the store's own
 * message, the root cause under it (a missing database, a refused connection, a locked data
 * directory) and what to do, never the stack of every layer it went through.
 */
import type { StorageError } from "@levy/storage"

/** Whether `e` is the store's failure (by tag: it may come from another copy of the class). */
export const isStorageError = (e: unknown): e is StorageError =>
  typeof e === "object" && e !== null && (e as { _tag?: unknown })._tag === "StorageError"

/** `levy: <what failed>: <why>. <what to do>` */
export const describe = (error: StorageError): string => {
  const root = rootMessage(error.cause)
  const why = root === undefined || root === error.message ? "" : `: ${root}`
  const hint = hintFor(root ?? error.message)
  return `levy: ${error.message}${why}.${hint === undefined ? "" : ` ${hint}`}`.replace(
    /\.\./g,
    "."
  )
}

/** The message of the innermost cause. */
const rootMessage = (cause: unknown): string | undefined => {
  let current = cause
  let message: string | undefined
  for (let depth = 0; depth < 10 && current instanceof Error; depth++) {
    message = current.message
    current = current.cause
  }
  return message?.split("\n")[0]
}

const hintFor = (message: string): string | undefined => {
  const missing = /database "([^"]+)" does not exist/.exec(message)
  if (missing !== null) {
    return `Create it (createdb ${missing[1]}, or CREATE DATABASE "${missing[1]}" in psql) or point DATABASE_URL at an existing database.`
  }
  if (/ECONNREFUSED|connect ENOENT/.test(message)) {
    return "Is PostgreSQL running there? Check DATABASE_URL, or unset it to use the embedded store."
  }
  if (/password authentication failed|role "[^"]+" does not exist/.test(message)) {
    return "Check the user and password in DATABASE_URL."
  }
  return undefined
}
