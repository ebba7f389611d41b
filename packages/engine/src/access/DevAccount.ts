/**
 * The development account (docs/design.md §5): on first start with an empty store, a server run
 * for development creates an account, prints its keys once (all but the live secret key) and
 * writes all four to a file of that store in the data directory (mode 0600, the shape of
 * `Accounts.Created`): `dev-account.json` for the embedded store, `dev-account.postgres.json`
 * for PostgreSQL, `dev-account.memory.json` for memory, so starting on another store never
 * overwrites the keys of the first. A file that holds another account is never overwritten
 * either. A store that already has an account is left alone.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { AccountRepository } from "@levy/storage"
import { Effect, Option } from "effect"
import * as Accounts from "./Accounts.js"

/** The file the embedded store's development account is written to. */
export const FILE = "dev-account.json"

/** The file of the development account of `store`. */
export const fileFor = (store: string): string =>
  store === "embedded" ? FILE : `dev-account.${store}.json`

/**
 * Writes `created` to `<dataDir>/<name>`, readable by the owner only; when that file holds
 * another account (a store dropped and created again), to `<name>` with the account id
 * added, so no key is lost. Returns the path written.
 */
export const write = (dataDir: string, created: Accounts.Created, name: string = FILE): string => {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const wanted = join(dataDir, name)
  const other = read(wanted)
  const path =
    other === undefined || other.accountId === created.accountId
      ? wanted
      : join(dataDir, name.replace(/\.json$/, `.${created.accountId}.json`))
  writeFileSync(path, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 })
  chmodSync(path, 0o600) // writeFileSync keeps the mode of an existing file
  return path
}

/** The account saved in a dev-account.json, or undefined when there is no such file. */
export const read = (path: string): Accounts.Created | undefined =>
  existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Accounts.Created) : undefined

/**
 * The keys as printed for a person. With the file they were written to (`serve`, whose stdout
 * ends up in logs), the live secret key is not printed: it is only in the file, readable by
 * its owner. Without one (`levy accounts create`, asked for at a terminal), all four are.
 */
export const format = (created: Accounts.Created, path?: string): string =>
  [
    "",
    `Levy account ${created.accountId}. These keys are shown once:`,
    `  secret key (test mode):      ${created.keys.secretDev}`,
    `  publishable key (test mode): ${created.keys.publishableDev}`,
    `  publishable key (live mode): ${created.keys.publishableProd}`,
    path === undefined
      ? `  secret key (live mode):      ${created.keys.secretProd}`
      : `  secret key (live mode):      not printed; read it from ${path}`,
    ...(path === undefined ? [] : [`All four are in ${path} (mode 0600).`]),
    ""
  ].join("\n")

/**
 * Creates the development account when the store has none; returns it (with the file it was
 * written to), or none when the store already had an account.
 */
export const ensure = (dataDir: string, name: string = FILE) =>
  Effect.gen(function* () {
    const accounts = yield* AccountRepository
    if (!(yield* accounts.isEmpty)) {
      yield* Effect.logInfo("store has accounts; no development account created")
      return Option.none<{ readonly created: Accounts.Created; readonly path: string }>()
    }
    const created = yield* Accounts.create("Development")
    const path = yield* Effect.sync(() => write(dataDir, created, name))
    yield* Effect.logInfo("development account created").pipe(
      Effect.annotateLogs({ accountId: created.accountId, file: path })
    )
    return Option.some({ created, path })
  })
