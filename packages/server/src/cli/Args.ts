/**
 * Command-line parsing with `node:util` `parseArgs` (@effect/cli is not a dependency):
 *
 *   levy serve [--port N] [--host H] [--store memory|embedded|postgres] [--data-dir DIR]
 *   levy migrate [--store …] [--data-dir DIR]
 *   levy accounts create [--name NAME] [--json] [--store …] [--data-dir DIR]
 *   levy keys roll <kind> [--account ID] [--json] [--store …] [--data-dir DIR]
 *
 * Defaults: port `PORT` or 4000; store `postgres` when `DATABASE_URL` is set, else
 * `embedded`; data dir `./.levy`.
 */
import { parseArgs } from "node:util"
import { Data } from "effect"
import * as Keys from "../Keys.js"
import * as Store from "./Store.js"

export const usage = `Usage:
  levy serve [--port N] [--host H] [--store memory|embedded|postgres] [--data-dir DIR]
  levy migrate [--store embedded|postgres] [--data-dir DIR]
  levy accounts create [--name NAME] [--json] [--store …] [--data-dir DIR]
  levy keys roll <kind> [--account ID] [--json] [--store …] [--data-dir DIR]

  <kind>      secretDev | publishableDev | secretProd | publishableProd
  --account   default: the account in <data-dir>/dev-account.json
  --port      port to listen on (default: PORT, else 4000; 0 = any free port)
  --host      address to bind (default: HOST, else all interfaces)
  --store     default: postgres when DATABASE_URL is set, else embedded
  --data-dir  embedded database, secret key and dev-account.json (default: ./.levy)`

/** A command line that does not parse. */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

export type Command =
  | {
      readonly _tag: "Serve"
      readonly port: number
      readonly host: string | undefined
      readonly store: Store.Options
    }
  | { readonly _tag: "Migrate"; readonly store: Store.Options }
  | {
      readonly _tag: "AccountsCreate"
      readonly name: string
      readonly json: boolean
      readonly store: Store.Options
    }
  | {
      readonly _tag: "KeysRoll"
      readonly kind: Keys.Kind
      readonly account: string | undefined
      readonly json: boolean
      readonly store: Store.Options
    }
  | { readonly _tag: "Help" }

const options = {
  port: { type: "string" },
  host: { type: "string" },
  store: { type: "string" },
  "data-dir": { type: "string" },
  name: { type: "string" },
  account: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" }
} as const

/** Parses `argv` (without node and the script) given the environment. */
export const parse = (
  argv: ReadonlyArray<string>,
  env: Readonly<Record<string, string | undefined>>
): Command => {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (e) {
    throw new UsageError({ message: e instanceof Error ? e.message : String(e) })
  }
  const { values, positionals } = parsed
  if (values.help === true || positionals.length === 0) return { _tag: "Help" }

  const databaseUrl = env.DATABASE_URL === "" ? undefined : env.DATABASE_URL
  const storeName = values.store ?? (databaseUrl === undefined ? "embedded" : "postgres")
  if (!(Store.kinds as ReadonlyArray<string>).includes(storeName)) {
    throw new UsageError({ message: `--store must be one of ${Store.kinds.join(", ")}` })
  }
  if (storeName === "postgres" && databaseUrl === undefined) {
    throw new UsageError({ message: "--store postgres needs DATABASE_URL to be set" })
  }
  const store: Store.Options = {
    store: storeName as Store.Kind,
    dataDir: values["data-dir"] ?? ".levy",
    databaseUrl
  }
  const allow = (command: string, allowed: ReadonlyArray<keyof typeof options>) => {
    for (const name of Object.keys(values)) {
      if (!allowed.includes(name as keyof typeof options)) {
        throw new UsageError({ message: `${command} does not take --${name}` })
      }
    }
  }
  const common = ["store", "data-dir"] as const
  const [command, ...rest] = positionals
  switch (`${command} ${rest.join(" ")}`.trim()) {
    case "serve": {
      allow("serve", [...common, "port", "host"])
      const portText = values.port ?? env.PORT ?? "4000"
      const port = Number(portText)
      if (!/^\d+$/.test(portText) || port > 65535) {
        throw new UsageError({ message: `invalid port: ${portText}` })
      }
      return { _tag: "Serve", port, host: values.host ?? env.HOST, store }
    }
    case "migrate":
      allow("migrate", common)
      return { _tag: "Migrate", store }
    case "accounts create":
      allow("accounts create", [...common, "name", "json"])
      return {
        _tag: "AccountsCreate",
        name: values.name ?? "Account",
        json: values.json === true,
        store
      }
    default:
      if (command === "keys" && rest[0] === "roll" && rest.length === 2) {
        allow("keys roll", [...common, "account", "json"])
        const kind = rest[1] ?? ""
        if (!Keys.isKind(kind)) {
          throw new UsageError({ message: `<kind> must be one of ${Keys.kinds.join(", ")}` })
        }
        return {
          _tag: "KeysRoll",
          kind,
          account: values.account,
          json: values.json === true,
          store
        }
      }
      throw new UsageError({ message: `unknown command: ${positionals.join(" ")}` })
  }
}
