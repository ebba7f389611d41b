/**
 * The development account (docs/design.md §5): on first start with an empty store the server
 * creates an account, prints its four keys once and writes them to
 * `<data-dir>/dev-account.json` (mode 0600, the shape of `Accounts.Created`). A store that
 * already has an account is left alone.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { AccountRepository } from "@levy/storage"
import { Effect, Option } from "effect"
import * as Accounts from "./Accounts.js"

/** The file the development account's keys are written to. */
export const FILE = "dev-account.json"

/** Writes `created` to `<dataDir>/dev-account.json`, readable by the owner only. */
export const write = (dataDir: string, created: Accounts.Created): string => {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const path = join(dataDir, FILE)
  writeFileSync(path, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 })
  chmodSync(path, 0o600) // writeFileSync keeps the mode of an existing file
  return path
}

/** The account saved in a dev-account.json, or undefined when there is no such file. */
export const read = (path: string): Accounts.Created | undefined =>
  existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Accounts.Created) : undefined

/** The keys as printed for a person (the secret keys are shown in full, once). */
export const format = (created: Accounts.Created, path?: string): string =>
  [
    "",
    `Levy development account ${created.accountId}. These keys are shown once:`,
    `  secret key (test mode):      ${created.keys.secretDev}`,
    `  publishable key (test mode): ${created.keys.publishableDev}`,
    `  secret key (live mode):      ${created.keys.secretProd}`,
    `  publishable key (live mode): ${created.keys.publishableProd}`,
    ...(path === undefined ? [] : [`Also written to ${path} (mode 0600).`]),
    ""
  ].join("\n")

/**
 * Creates the development account when the store has none; returns it (with the file it was
 * written to), or none when the store already had an account.
 */
export const ensure = (dataDir: string) =>
  Effect.gen(function* () {
    const accounts = yield* AccountRepository
    if (!(yield* accounts.isEmpty)) {
      yield* Effect.logInfo("store has accounts; no development account created")
      return Option.none<{ readonly created: Accounts.Created; readonly path: string }>()
    }
    const created = yield* Accounts.create("Development")
    const path = yield* Effect.sync(() => write(dataDir, created))
    yield* Effect.logInfo("development account created").pipe(
      Effect.annotateLogs({ accountId: created.accountId, file: path })
    )
    return Option.some({ created, path })
  })
