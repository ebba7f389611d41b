/**
 * The `levy` command line, declared with @effect/cli:
 *
 *   levy serve [--port N] [--host H] [--dev] [--store memory|embedded|postgres] [--data-dir DIR]
 *   levy migrate [--store …] [--data-dir DIR]
 *   levy accounts create [--name NAME] [--json] [--store …] [--data-dir DIR]
 *   levy keys roll <kind> [--account ID] [--json] [--store …] [--data-dir DIR]
 *   levy keys create [--mode test|live] [--name N] [--account ID] [--json] [--store …] [--data-dir DIR]
 *   levy keys list [--account ID] [--json] [--store …] [--data-dir DIR]
 *   levy keys revoke <key_id> [--account ID] [--store …] [--data-dir DIR]
 *   levy fee-configs approve <fcc_id> [--account ID] [--store …] [--data-dir DIR]
 *   levy fee-configs cancel [--account ID] [--store …] [--data-dir DIR]
 *   levy processors set <stripe|adyen> --credential NAME=VALUE… [--surcharge] [--live] [--account ID] [--json] [--store …] [--data-dir DIR]
 *   levy processors show [--live] [--account ID] [--json] [--store …] [--data-dir DIR]
 *   levy processors delete [--live] [--account ID] [--store …] [--data-dir DIR]
 *   levy processors approve <pcc_id> [--account ID] [--store …] [--data-dir DIR]
 *   levy processors cancel [--account ID] [--store …] [--data-dir DIR]
 *   levy listen --forward-to URL [--api-key KEY] [--api-base URL] [--since UNIX_SECONDS]
 *   levy rules diff <from> <to> [--json]
 *   levy rules diff <from> <to> --account ID [--live] [--json] [--store …] [--data-dir DIR]
 *   levy fake <stripe|adyen> [--port N] [--json]
 *
 * Every command line becomes one `Command` value, handed to the caller's `run`: main runs
 * it, the tests only look at it. Defaults that depend on the environment (`PORT`, `HOST`,
 * `DATABASE_URL`, `LEVY_API_KEY`) are read through `Config`, so a test supplies them with a
 * `ConfigProvider`.
 */
import * as CliArgs from "@effect/cli/Args"
import * as CliConfig from "@effect/cli/CliConfig"
import * as CliCommand from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import type * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Keys from "@levy/engine/access/Keys.js"
import * as Store from "@levy/engine/Store.js"
import { Storage } from "@levy/storage"
import { Config, ConfigProvider, Data, Effect, Option, Ref, Schema } from "effect"
import { version } from "../Version.js"

/** A command line that parses but cannot run as given (a missing `DATABASE_URL`, a bad port). */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

/** A command that ran and failed for a reason outside the command line (a processor down). */
export class CommandFailed extends Data.TaggedError("CommandFailed")<{
  readonly message: string
}> {}

export type Command =
  | {
      readonly _tag: "Serve"
      readonly port: number
      /**
       * The address to bind: `--host`, else `HOST`, else 127.0.0.1 when run for development
       * (a development server is not for other machines), else every interface.
       */
      readonly host: string | undefined
      /**
       * Run for development: create (and print) the development account on an empty store,
       * and let test-mode webhooks target loopback. `--dev` or `LEVY_DEV=true`; by default on
       * for the embedded and memory stores, off on PostgreSQL (`LEVY_DEV=false` turns it off).
       */
      readonly dev: boolean
      /** What decided `dev`: the flag, `LEVY_DEV`, or the store's default. */
      readonly devBy: "flag" | "env" | "store"
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
  | {
      readonly _tag: "KeysCreate"
      readonly mode: "test" | "live"
      readonly name: string
      readonly account: string | undefined
      readonly json: boolean
      readonly store: Store.Options
    }
  | {
      readonly _tag: "KeysList"
      readonly account: string | undefined
      readonly json: boolean
      readonly store: Store.Options
    }
  | {
      readonly _tag: "KeysRevoke"
      readonly keyId: string
      readonly account: string | undefined
      readonly store: Store.Options
    }
  | {
      readonly _tag: "FeeConfigsResolve"
      readonly action: "approve" | "cancel"
      /** The change approved (`approve` names the change it applies). */
      readonly id: string | undefined
      readonly account: string | undefined
      readonly store: Store.Options
    }
  | {
      readonly _tag: "ProcessorsSet"
      readonly processor: string
      /** By name; `env:VAR` values already replaced by the variable's value. */
      readonly credentials: Readonly<Record<string, string>>
      readonly surcharge: boolean
      readonly live: boolean
      readonly account: string | undefined
      readonly json: boolean
      readonly store: Store.Options
    }
  | {
      readonly _tag: "ProcessorsShow"
      readonly live: boolean
      readonly account: string | undefined
      readonly json: boolean
      readonly store: Store.Options
    }
  | {
      readonly _tag: "ProcessorsDelete"
      readonly live: boolean
      readonly account: string | undefined
      readonly store: Store.Options
    }
  | {
      readonly _tag: "ProcessorsResolve"
      readonly action: "approve" | "cancel"
      /** The change approved (`approve` names the change it applies). */
      readonly id: string | undefined
      readonly account: string | undefined
      readonly store: Store.Options
    }
  | {
      readonly _tag: "Listen"
      readonly forwardTo: string
      readonly apiKey: string
      readonly apiBase: string
      readonly since: number | undefined
    }
  | {
      readonly _tag: "RulesDiff"
      /**
       * Ruleset versions ("1.0.0", or "latest"), or with an account two days ("2026-07-01",
       * "today"); checked when the command runs.
       */
      readonly from: string
      readonly to: string
      readonly json: boolean
      /** The account whose regions and fee the difference is shown for, in one mode. */
      readonly account?:
        | { readonly id: string; readonly live: boolean; readonly store: Store.Options }
        | undefined
    }
  | {
      readonly _tag: "Fake"
      readonly processor: "stripe" | "adyen"
      /** 0: any free port; undefined: the processor's default (cli/Fake.ts). */
      readonly port: number | undefined
      readonly json: boolean
    }
  | { readonly _tag: "Help" }

/** Where a server run for development listens unless told otherwise. */
export const LOOPBACK = "127.0.0.1"

/** An environment variable; empty counts as unset (as a shell's `VAR=` means). */
const env = (name: string) =>
  Config.string(name).pipe(
    Config.option,
    Config.map(Option.filter((v) => v !== "")),
    Effect.map(Option.getOrUndefined),
    Effect.orDie
  )

const storeOptions = {
  store: Options.choice("store", Store.kinds).pipe(
    Options.optional,
    Options.withDescription(
      "memory | embedded | postgres (default: postgres when DATABASE_URL is set, else embedded)"
    )
  ),
  dataDir: Options.text("data-dir").pipe(
    Options.optional,
    Options.withDescription(
      "embedded database, secret key and dev-account.json (default: LEVY_DATA_DIR, else .levy)"
    )
  )
}

const resolveStore = (flags: {
  readonly store: Option.Option<Store.Kind>
  readonly dataDir: Option.Option<string>
}) =>
  Effect.gen(function* () {
    const dataDir = Option.isSome(flags.dataDir)
      ? flags.dataDir.value
      : yield* Storage.dataDirFromEnv.pipe(Effect.orDie)
    const databaseUrl = yield* env("DATABASE_URL")
    const store = Option.getOrElse(flags.store, () =>
      databaseUrl === undefined ? ("embedded" as const) : ("postgres" as const)
    )
    if (store === "postgres" && databaseUrl === undefined) {
      return yield* new UsageError({ message: "--store postgres needs DATABASE_URL to be set" })
    }
    const options: Store.Options = { store, dataDir, databaseUrl }
    return options
  })

const json = Options.boolean("json").pipe(Options.withDescription("print JSON"))
const account = Options.text("account").pipe(
  Options.optional,
  Options.withDescription("the account (default: the one in <data-dir>/dev-account.json)")
)

const live = Options.boolean("live").pipe(
  Options.withDescription("the account's live mode (default: test mode)")
)

/**
 * A credential's value: `env:VAR` reads the environment variable VAR, so a secret need not be
 * typed on the command line (where the shell's history and `ps` would keep it).
 */
const credentialValue = (name: string, value: string) =>
  Effect.gen(function* () {
    if (!value.startsWith("env:")) return value
    const variable = value.slice("env:".length)
    const read = yield* env(variable)
    if (read === undefined) {
      return yield* new UsageError({
        message: `--credential ${name}=env:${variable}: the environment variable ${variable} is not set`
      })
    }
    return read
  })

const resolvePort = (flag: Option.Option<number>) =>
  Effect.gen(function* () {
    const text = Option.isSome(flag) ? String(flag.value) : ((yield* env("PORT")) ?? "4000")
    const port = Number(text)
    if (!/^\d+$/.test(text) || port > 65535) {
      return yield* new UsageError({ message: `invalid port: ${text}` })
    }
    return port
  })

/** The command tree; each leaf hands its `Command` to `run`. */
export const make = <E, R>(run: (command: Command) => Effect.Effect<void, E, R>) => {
  const handle =
    <A>(toCommand: (flags: A) => Effect.Effect<Command, UsageError>) =>
    (flags: A) =>
      Effect.flatMap(toCommand(flags), run)

  const serve = CliCommand.make(
    "serve",
    {
      port: Options.integer("port").pipe(
        Options.optional,
        Options.withDescription("port to listen on (default: PORT, else 4000; 0 = any free port)")
      ),
      host: Options.text("host").pipe(
        Options.optional,
        Options.withDescription(
          "address to bind (default: HOST, else 127.0.0.1 when run for development, else all interfaces)"
        )
      ),
      dev: Options.boolean("dev").pipe(
        Options.withDescription(
          "run for development: a development account on an empty store, loopback webhook targets in test mode (default: LEVY_DEV, else on except with --store postgres)"
        )
      ),
      ...storeOptions
    },
    handle((flags) =>
      Effect.gen(function* () {
        const port = yield* resolvePort(flags.port)
        const store = yield* resolveStore(flags)
        const devEnv = yield* env("LEVY_DEV")
        if (devEnv !== undefined && devEnv !== "true" && devEnv !== "false") {
          return yield* new UsageError({ message: `LEVY_DEV must be true or false, not ${devEnv}` })
        }
        const devBy = flags.dev ? "flag" : devEnv !== undefined ? "env" : "store"
        const dev = flags.dev || (devEnv ?? String(store.store !== "postgres")) === "true"
        const host =
          Option.getOrUndefined(flags.host) ?? (yield* env("HOST")) ?? (dev ? LOOPBACK : undefined)
        return { _tag: "Serve", port, host, dev, devBy, store } as const
      })
    )
  ).pipe(
    CliCommand.withDescription(
      "serve /v1 (for development, creates the development account on an empty store)"
    )
  )

  const migrate = CliCommand.make(
    "migrate",
    storeOptions,
    handle((flags) =>
      Effect.map(resolveStore(flags), (store) => ({ _tag: "Migrate", store }) as const)
    )
  ).pipe(CliCommand.withDescription("apply pending migrations"))

  const accountsCreate = CliCommand.make(
    "create",
    {
      name: Options.text("name").pipe(Options.withDefault("Account")),
      json,
      ...storeOptions
    },
    handle((flags) =>
      Effect.map(
        resolveStore(flags),
        (store) => ({ _tag: "AccountsCreate", name: flags.name, json: flags.json, store }) as const
      )
    )
  ).pipe(CliCommand.withDescription("a new account with its four keys, printed once"))

  const keysRoll = CliCommand.make(
    "roll",
    {
      kind: CliArgs.choice(
        Keys.kinds.map((k) => [k, k] as const),
        { name: "kind" }
      ),
      account,
      json,
      ...storeOptions
    },
    handle((flags) =>
      Effect.map(
        resolveStore(flags),
        (store) =>
          ({
            _tag: "KeysRoll",
            kind: flags.kind,
            account: Option.getOrUndefined(flags.account),
            json: flags.json,
            store
          }) as const
      )
    )
  ).pipe(CliCommand.withDescription("a new key of <kind>, revoking the previous ones"))

  const keysList = CliCommand.make(
    "list",
    { account, json, ...storeOptions },
    handle((flags) =>
      Effect.map(
        resolveStore(flags),
        (store) =>
          ({
            _tag: "KeysList",
            account: Option.getOrUndefined(flags.account),
            json: flags.json,
            store
          }) as const
      )
    )
  ).pipe(
    CliCommand.withDescription(
      "the account's keys (ids, kinds, modes, names, last use; never the keys)"
    )
  )

  const keysRevoke = CliCommand.make(
    "revoke",
    {
      keyId: CliArgs.text({ name: "key_id" }).pipe(
        CliArgs.withSchema(Schema.String.pipe(Schema.pattern(/^key_\w+$/))),
        CliArgs.withDescription("the key's id (key_…), as `levy keys list` shows it")
      ),
      account,
      ...storeOptions
    },
    handle((flags) =>
      Effect.map(
        resolveStore(flags),
        (store) =>
          ({
            _tag: "KeysRevoke",
            keyId: flags.keyId,
            account: Option.getOrUndefined(flags.account),
            store
          }) as const
      )
    )
  ).pipe(CliCommand.withDescription("revoke a key at once (any kind, including named keys)"))

  const keysCreate = CliCommand.make(
    "create",
    {
      mode: Options.choice("mode", ["test", "live"]).pipe(
        Options.withDefault("test" as const),
        Options.withDescription("test (sk_dev_…) or live (sk_prod_…)")
      ),
      name: Options.text("name").pipe(
        Options.withDefault("cli"),
        Options.withDescription("a label for the key")
      ),
      account,
      json,
      ...storeOptions
    },
    handle((flags) =>
      Effect.gen(function* () {
        // The four kind names label the keys `keys roll` replaces: an additional key must not
        // be mistaken for one of them.
        if (Keys.isKind(flags.name)) {
          return yield* new UsageError({
            message: `--name cannot be ${flags.name}: that names the key \`keys roll ${flags.name}\` replaces`
          })
        }
        return {
          _tag: "KeysCreate",
          mode: flags.mode,
          name: flags.name,
          account: Option.getOrUndefined(flags.account),
          json: flags.json,
          store: yield* resolveStore(flags)
        } as const
      })
    )
  ).pipe(
    CliCommand.withDescription("an additional named secret key (the account's other keys stay)")
  )

  /**
   * `approve <id>` / `cancel` of a live-mode change held for approval: an approval names the
   * change it applies, never whatever is held at that moment.
   */
  const resolving = (
    tag: "FeeConfigsResolve" | "ProcessorsResolve",
    action: "approve" | "cancel",
    held: {
      readonly prefix: "fcc" | "pcc"
      readonly command: string
      readonly shownBy: string
      readonly what: string
    }
  ) =>
    CliCommand.make(
      action,
      {
        id: CliArgs.text({ name: `${held.prefix}_id` }).pipe(
          CliArgs.withSchema(
            Schema.String.pipe(Schema.pattern(new RegExp(`^${held.prefix}_\\w+$`)))
          ),
          CliArgs.withDescription(
            `the held change's id (${held.prefix}_…), as ${held.shownBy} shows it`
          ),
          CliArgs.optional
        ),
        account,
        ...storeOptions
      },
      handle((flags) =>
        Effect.gen(function* () {
          const id = Option.getOrUndefined(flags.id)
          if (action === "approve" && id === undefined) {
            return yield* new UsageError({
              message: `${held.command} approve needs the held change's id (${held.prefix}_…): levy ${held.command} approve ${held.prefix}_…`
            })
          }
          return {
            _tag: tag,
            action,
            id,
            account: Option.getOrUndefined(flags.account),
            store: yield* resolveStore(flags)
          } as const
        })
      )
    ).pipe(CliCommand.withDescription(`${action} the live-mode ${held.what} held for approval`))

  const feeConfigs = (action: "approve" | "cancel") =>
    resolving("FeeConfigsResolve", action, {
      prefix: "fcc",
      command: "fee-configs",
      shownBy: "GET /v1/fee-configs",
      what: "fee configuration change"
    })

  const processorsSet = CliCommand.make(
    "set",
    {
      processor: CliArgs.choice(
        [
          ["stripe", "stripe"],
          ["adyen", "adyen"]
        ] as const,
        { name: "processor" }
      ),
      credentials: Options.keyValueMap("credential").pipe(
        Options.withDescription(
          "NAME=VALUE, repeated (VALUE env:VAR reads the environment variable VAR). Stripe: secretKey, webhookSecret. Adyen: apiKey, merchantAccount, hmacKey, liveEndpointUrlPrefix (live), returnUrl."
        )
      ),
      surcharge: Options.boolean("surcharge").pipe(
        Options.withDescription("also send the fee in the processor's surcharge field (Adyen)")
      ),
      live,
      account,
      json,
      ...storeOptions
    },
    handle((flags) =>
      Effect.gen(function* () {
        const credentials: Record<string, string> = {}
        for (const [name, value] of flags.credentials) {
          credentials[name] = yield* credentialValue(name, value)
        }
        return {
          _tag: "ProcessorsSet",
          processor: flags.processor,
          credentials,
          surcharge: flags.surcharge,
          live: flags.live,
          account: Option.getOrUndefined(flags.account),
          json: flags.json,
          store: yield* resolveStore(flags)
        } as const
      })
    )
  ).pipe(
    CliCommand.withDescription(
      "connect a payment processor: its credentials are checked with the processor, then saved sealed, at once (as the account's owner, in live mode too)"
    )
  )

  const processorsShow = CliCommand.make(
    "show",
    { live, account, json, ...storeOptions },
    handle((flags) =>
      Effect.map(
        resolveStore(flags),
        (store) =>
          ({
            _tag: "ProcessorsShow",
            live: flags.live,
            account: Option.getOrUndefined(flags.account),
            json: flags.json,
            store
          }) as const
      )
    )
  ).pipe(CliCommand.withDescription("the payment processor of the mode, credentials masked"))

  const processorsDelete = CliCommand.make(
    "delete",
    { live, account, ...storeOptions },
    handle((flags) =>
      Effect.map(
        resolveStore(flags),
        (store) =>
          ({
            _tag: "ProcessorsDelete",
            live: flags.live,
            account: Option.getOrUndefined(flags.account),
            store
          }) as const
      )
    )
  ).pipe(
    CliCommand.withDescription(
      "disconnect the payment processor of the mode, at once (as the account's owner, in live mode too)"
    )
  )

  const processorsResolve = (action: "approve" | "cancel") =>
    resolving("ProcessorsResolve", action, {
      prefix: "pcc",
      command: "processors",
      shownBy: "levy processors show --live or GET /v1/processor-config/pending",
      what: "processor configuration change"
    })

  const listen = CliCommand.make(
    "listen",
    {
      forwardTo: Options.text("forward-to").pipe(
        Options.withDescription("the local URL events are POSTed to")
      ),
      apiKey: Options.text("api-key").pipe(
        Options.optional,
        Options.withDescription("a test-mode secret key sk_dev_… (default: LEVY_API_KEY)")
      ),
      apiBase: Options.text("api-base").pipe(
        Options.withDefault("http://localhost:4000"),
        Options.withDescription("the Levy server")
      ),
      since: Options.integer("since").pipe(
        Options.optional,
        Options.withDescription("also forward events created at or after this unix time")
      )
    },
    handle((flags) =>
      Effect.gen(function* () {
        const apiKey = Option.getOrUndefined(flags.apiKey) ?? (yield* env("LEVY_API_KEY"))
        if (apiKey === undefined) {
          return yield* new UsageError({ message: "listen needs --api-key or LEVY_API_KEY" })
        }
        if (!apiKey.startsWith("sk_dev_")) {
          return yield* new UsageError({
            message: "listen forwards test-mode events only: use a test-mode secret key (sk_dev_…)"
          })
        }
        const protocol = URL.canParse(flags.forwardTo) ? new URL(flags.forwardTo).protocol : ""
        if (protocol !== "http:" && protocol !== "https:") {
          return yield* new UsageError({
            message: `--forward-to must be an http(s) URL: ${flags.forwardTo}`
          })
        }
        return {
          _tag: "Listen",
          forwardTo: flags.forwardTo,
          apiKey,
          apiBase: flags.apiBase.replace(/\/+$/, ""),
          since: Option.getOrUndefined(flags.since)
        } as const
      })
    )
  ).pipe(CliCommand.withDescription("forward the test-mode events of the key's account, signed"))

  const rulesDiff = CliCommand.make(
    "diff",
    {
      from: CliArgs.text({ name: "from" }).pipe(
        CliArgs.withDescription('a ruleset version ("1.0.0"), or "latest"')
      ),
      to: CliArgs.text({ name: "to" }).pipe(
        CliArgs.withDescription('a later (or any other) ruleset version, or "latest"')
      ),
      json,
      account: Options.text("account").pipe(
        Options.optional,
        Options.withDescription(
          'what the difference means for this account\'s regions and fee; then <from> and <to> may be two days ("today", "2026-07-01") under its own ruleset'
        )
      ),
      live,
      ...storeOptions
    },
    handle((flags) =>
      Option.match(flags.account, {
        onNone: () =>
          flags.live
            ? Effect.fail(new UsageError({ message: "--live needs --account" }))
            : Effect.succeed({
                _tag: "RulesDiff",
                from: flags.from,
                to: flags.to,
                json: flags.json
              } as const),
        onSome: (id) =>
          Effect.map(
            resolveStore(flags),
            (store) =>
              ({
                _tag: "RulesDiff",
                from: flags.from,
                to: flags.to,
                json: flags.json,
                account: { id, live: flags.live, store }
              }) as const
          )
      })
    )
  ).pipe(
    CliCommand.withDescription(
      "the jurisdictions whose rules differ between two ruleset versions: added, removed, changed (fields, effective dates, sources); with --account, what that (or today against a date) changes in the account's regions and fee"
    )
  )

  const fake = CliCommand.make(
    "fake",
    {
      processor: CliArgs.choice(
        [
          ["stripe", "stripe"],
          ["adyen", "adyen"]
        ] as const,
        { name: "processor" }
      ),
      port: Options.integer("port").pipe(
        Options.optional,
        Options.withDescription(
          "port on 127.0.0.1 (default: stripe 4100, adyen 4101; 0 = any free port)"
        )
      ),
      json
    },
    handle((flags) =>
      Effect.gen(function* () {
        const port = Option.getOrUndefined(flags.port)
        if (port !== undefined && (port < 0 || port > 65535)) {
          return yield* new UsageError({ message: `invalid port: ${port}` })
        }
        return { _tag: "Fake", processor: flags.processor, port, json: flags.json } as const
      })
    )
  ).pipe(
    CliCommand.withDescription(
      "serve a local fake of the processor's API on 127.0.0.1 that accepts live-looking credentials, to try live mode on one machine (Levy uses it only with LEVY_<PROCESSOR>_API_BASE_URL set); prints the setting and the next commands"
    )
  )

  return CliCommand.make("levy", {}, () => run({ _tag: "Help" })).pipe(
    CliCommand.withSubcommands([
      serve,
      migrate,
      CliCommand.make("accounts").pipe(CliCommand.withSubcommands([accountsCreate])),
      CliCommand.make("keys").pipe(
        CliCommand.withSubcommands([keysRoll, keysCreate, keysList, keysRevoke])
      ),
      CliCommand.make("fee-configs").pipe(
        CliCommand.withSubcommands([feeConfigs("approve"), feeConfigs("cancel")])
      ),
      CliCommand.make("processors").pipe(
        CliCommand.withSubcommands([
          processorsSet,
          processorsShow,
          processorsDelete,
          processorsResolve("approve"),
          processorsResolve("cancel")
        ])
      ),
      listen,
      CliCommand.make("rules").pipe(CliCommand.withSubcommands([rulesDiff])),
      fake
    ])
  )
}

/** Runs the `levy` command line `argv` (without node and the script) with `run`. */
export const runWith = <E, R>(
  argv: ReadonlyArray<string>,
  run: (command: Command) => Effect.Effect<void, E, R>
) =>
  CliCommand.run(make(run), { name: "levy", version, executable: "levy" })([
    "node",
    "levy",
    ...argv
  ]).pipe(Effect.provide(NodeContext.layer))

/**
 * The `Command` a command line parses to, given the environment; `Help` when it only asks
 * for help. Fails with the @effect/cli `ValidationError` or a `UsageError`.
 */
export const parse = (
  argv: ReadonlyArray<string>,
  environment: Readonly<Record<string, string>>
): Effect.Effect<Command, ValidationError.ValidationError | UsageError> =>
  Effect.gen(function* () {
    const parsed = yield* Ref.make<Command>({ _tag: "Help" })
    yield* runWith(argv, (command) => Ref.set(parsed, command))
    return yield* Ref.get(parsed)
  }).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(environment)))))

/** The help of the whole tree, as text. */
export const help = (): string =>
  HelpDoc.toAnsiText(
    CliCommand.getHelp(
      make(() => Effect.void),
      CliConfig.defaultConfig
    )
  )
