/** `levy` command-line parsing (@effect/cli) and its defaults, for every command. */
import * as ValidationError from "@effect/cli/ValidationError"
import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { type Command, parse, UsageError } from "../src/cli/Args.js"

// @effect/cli prints its help and errors on the console: kept out of the test output.
beforeAll(() => {
  vi.spyOn(console, "log").mockImplementation(() => {})
  vi.spyOn(console, "error").mockImplementation(() => {})
})
afterAll(() => {
  vi.restoreAllMocks()
})

const run = (argv: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Command> =>
  Effect.runPromise(parse(argv, env))

const failure = async (argv: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const exit = await Effect.runPromiseExit(parse(argv, env))
  if (Exit.isSuccess(exit))
    throw new Error(`${argv.join(" ")} parsed: ${JSON.stringify(exit.value)}`)
  const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  return error
}

const embedded = { store: "embedded", dataDir: ".levy", databaseUrl: undefined }

describe("levy arguments", () => {
  it("serve defaults: port 4000, embedded store in ./.levy; PORT, HOST and DATABASE_URL change them", async () => {
    expect(await run(["serve"])).toEqual({
      _tag: "Serve",
      port: 4000,
      host: "127.0.0.1",
      dev: true,
      devBy: "store",
      store: embedded
    })
    expect(
      await run(["serve"], { PORT: "8080", HOST: "127.0.0.1", DATABASE_URL: "postgres://x/y" })
    ).toEqual({
      _tag: "Serve",
      port: 8080,
      host: "127.0.0.1",
      dev: false,
      devBy: "store",
      store: { store: "postgres", dataDir: ".levy", databaseUrl: "postgres://x/y" }
    })
    // Flags win over the environment; an empty variable counts as unset.
    expect(
      await run(
        ["serve", "--port", "0", "--host", "::1", "--store", "memory", "--data-dir", "/tmp/d"],
        { PORT: "1", HOST: "0.0.0.0", DATABASE_URL: "" }
      )
    ).toEqual({
      _tag: "Serve",
      port: 0,
      host: "::1",
      dev: true,
      devBy: "store",
      store: { store: "memory", dataDir: "/tmp/d", databaseUrl: undefined }
    })
  })

  it("serve: run for development it listens on 127.0.0.1 unless told otherwise; in production on every interface (second review, item 12)", async () => {
    const pg = { DATABASE_URL: "postgres://x/y" }
    expect(await run(["serve"])).toMatchObject({ dev: true, host: "127.0.0.1" })
    expect(await run(["serve", "--dev"], pg)).toMatchObject({ dev: true, host: "127.0.0.1" })
    expect(await run(["serve", "--host", "0.0.0.0"])).toMatchObject({ dev: true, host: "0.0.0.0" })
    expect(await run(["serve"], { HOST: "::" })).toMatchObject({ dev: true, host: "::" })
    expect(await run(["serve"], pg)).toMatchObject({ dev: false, host: undefined })
    expect(await run(["serve"], { LEVY_DEV: "false" })).toMatchObject({
      dev: false,
      host: undefined
    })
  })

  it("serve --dev: on by default except on PostgreSQL; --dev or LEVY_DEV decide", async () => {
    const pg = { DATABASE_URL: "postgres://x/y" }
    expect(await run(["serve"], pg)).toMatchObject({ dev: false, devBy: "store" })
    expect(await run(["serve", "--dev"], pg)).toMatchObject({ dev: true, devBy: "flag" })
    expect(await run(["serve"], { ...pg, LEVY_DEV: "true" })).toMatchObject({
      dev: true,
      devBy: "env"
    })
    expect(await run(["serve"], { LEVY_DEV: "false" })).toMatchObject({ dev: false, devBy: "env" })
    expect(await failure(["serve"], { LEVY_DEV: "yes" })).toBeInstanceOf(UsageError)
  })

  it("the data directory: --data-dir, else LEVY_DATA_DIR (empty is unset), else .levy, for every store command", async () => {
    const env = { LEVY_DATA_DIR: "/srv/levy" }
    expect(await run(["serve"], env)).toMatchObject({ store: { dataDir: "/srv/levy" } })
    expect(await run(["serve", "--data-dir", "d"], env)).toMatchObject({ store: { dataDir: "d" } })
    expect(await run(["serve"], { LEVY_DATA_DIR: "" })).toMatchObject({ store: embedded })
    for (const argv of [
      ["migrate"],
      ["accounts", "create"],
      ["keys", "create", "--mode", "live"],
      ["keys", "list"],
      ["keys", "revoke", "key_1"],
      ["keys", "roll", "secretDev"],
      ["fee-configs", "cancel"],
      ["processors", "show"],
      ["processors", "cancel"]
    ]) {
      expect(await run(argv, env), argv.join(" ")).toMatchObject({
        store: { dataDir: "/srv/levy" }
      })
    }
    expect(
      await run(["rules", "diff", "1.0.0", "latest", "--account", "acct_1"], env)
    ).toMatchObject({ account: { store: { dataDir: "/srv/levy" } } })
  })

  it("migrate, accounts create, keys roll", async () => {
    expect(await run(["migrate", "--data-dir", "d"])).toEqual({
      _tag: "Migrate",
      store: { ...embedded, dataDir: "d" }
    })
    expect(await run(["accounts", "create"])).toEqual({
      _tag: "AccountsCreate",
      name: "Account",
      json: false,
      store: embedded
    })
    expect(await run(["accounts", "create", "--json", "--name", "Shop"])).toMatchObject({
      _tag: "AccountsCreate",
      json: true,
      name: "Shop"
    })
    // Options may follow the positional argument.
    expect(await run(["keys", "roll", "publishableProd", "--account", "acct_1"])).toEqual({
      _tag: "KeysRoll",
      kind: "publishableProd",
      account: "acct_1",
      json: false,
      store: embedded
    })
    expect(await run(["keys", "roll", "--json", "secretDev"])).toMatchObject({
      kind: "secretDev",
      account: undefined,
      json: true
    })
  })

  it("keys create: a test-mode key named cli by default; --mode, --name, --account, --json", async () => {
    expect(await run(["keys", "create"])).toEqual({
      _tag: "KeysCreate",
      mode: "test",
      name: "cli",
      account: undefined,
      json: false,
      store: embedded
    })
    expect(
      await run([
        "keys",
        "create",
        "--mode",
        "live",
        "--name",
        "approver",
        "--account",
        "acct_9",
        "--json",
        "--store",
        "memory"
      ])
    ).toEqual({
      _tag: "KeysCreate",
      mode: "live",
      name: "approver",
      account: "acct_9",
      json: true,
      store: { ...embedded, store: "memory" }
    })
  })

  it("keys list and keys revoke", async () => {
    expect(await run(["keys", "list", "--json", "--account", "acct_1"])).toEqual({
      _tag: "KeysList",
      account: "acct_1",
      json: true,
      store: embedded
    })
    expect(await run(["keys", "revoke", "key_abc"])).toEqual({
      _tag: "KeysRevoke",
      keyId: "key_abc",
      account: undefined,
      store: embedded
    })
  })

  it("fee-configs approve and cancel", async () => {
    expect(await run(["fee-configs", "approve", "fcc_1"])).toEqual({
      _tag: "FeeConfigsResolve",
      action: "approve",
      id: "fcc_1",
      account: undefined,
      store: embedded
    })
    expect(await run(["fee-configs", "cancel", "--account", "acct_2"])).toMatchObject({
      action: "cancel",
      id: undefined,
      account: "acct_2"
    })
  })

  it("processors approve and cancel: the held live-mode change, approve naming it", async () => {
    expect(await run(["processors", "approve", "pcc_1"])).toEqual({
      _tag: "ProcessorsResolve",
      action: "approve",
      id: "pcc_1",
      account: undefined,
      store: embedded
    })
    expect(await run(["processors", "cancel", "--account", "acct_2"])).toMatchObject({
      _tag: "ProcessorsResolve",
      action: "cancel",
      id: undefined,
      account: "acct_2"
    })
  })

  it("processors set/show/delete: credentials by name, env:VAR read from the environment, --live", async () => {
    expect(
      await run(
        [
          "processors",
          "set",
          "stripe",
          "--credential",
          "secretKey=env:STRIPE_SECRET_KEY",
          "--credential",
          "webhookSecret=whsec_abc=def",
          "--live"
        ],
        { STRIPE_SECRET_KEY: "sk_live_from_env" }
      )
    ).toEqual({
      _tag: "ProcessorsSet",
      processor: "stripe",
      credentials: { secretKey: "sk_live_from_env", webhookSecret: "whsec_abc=def" },
      surcharge: false,
      live: true,
      account: undefined,
      json: false,
      store: embedded
    })
    expect(
      await run(["processors", "set", "adyen", "--credential", "apiKey=k", "--surcharge"])
    ).toMatchObject({
      processor: "adyen",
      credentials: { apiKey: "k" },
      surcharge: true,
      live: false
    })
    expect(await run(["processors", "show", "--json", "--account", "acct_2"])).toEqual({
      _tag: "ProcessorsShow",
      live: false,
      account: "acct_2",
      json: true,
      store: embedded
    })
    expect(await run(["processors", "delete", "--live"])).toEqual({
      _tag: "ProcessorsDelete",
      live: true,
      account: undefined,
      store: embedded
    })
  })

  it("processors set refuses an unset env: variable, an unknown processor, no credential", async () => {
    const unset = await failure([
      "processors",
      "set",
      "stripe",
      "--credential",
      "secretKey=env:NOT_SET_ANYWHERE"
    ])
    expect(unset).toBeInstanceOf(UsageError)
    expect((unset as UsageError).message).toContain("NOT_SET_ANYWHERE is not set")
    expect(
      ValidationError.isValidationError(
        await failure(["processors", "set", "paypal", "--credential", "a=b"])
      )
    ).toBe(true)
    expect(ValidationError.isValidationError(await failure(["processors", "set", "stripe"]))).toBe(
      true
    )
  })

  it("listen: --api-key or LEVY_API_KEY, the API base (trailing slash dropped), --since", async () => {
    expect(
      await run(["listen", "--forward-to", "http://localhost:3000/webhooks"], {
        LEVY_API_KEY: "sk_dev_service_abc"
      })
    ).toEqual({
      _tag: "Listen",
      forwardTo: "http://localhost:3000/webhooks",
      apiKey: "sk_dev_service_abc",
      apiBase: "http://localhost:4000",
      since: undefined
    })
    expect(
      await run(
        [
          "listen",
          "--forward-to",
          "http://127.0.0.1:9/h",
          "--api-key",
          "sk_dev_service_flag",
          "--api-base",
          "http://127.0.0.1:4001/",
          "--since",
          "1700000000"
        ],
        { LEVY_API_KEY: "sk_dev_service_env" }
      )
    ).toEqual({
      _tag: "Listen",
      forwardTo: "http://127.0.0.1:9/h",
      apiKey: "sk_dev_service_flag",
      apiBase: "http://127.0.0.1:4001",
      since: 1700000000
    })
  })

  it("fake: stripe or adyen, the processor's default port unless --port; --json", async () => {
    expect(await run(["fake", "stripe"])).toEqual({
      _tag: "Fake",
      processor: "stripe",
      port: undefined,
      json: false
    })
    expect(await run(["fake", "adyen", "--port", "0", "--json"])).toEqual({
      _tag: "Fake",
      processor: "adyen",
      port: 0,
      json: true
    })
    const big = await failure(["fake", "stripe", "--port", "70000"])
    expect((big as UsageError).message).toBe("invalid port: 70000")
    const other = await failure(["fake", "paypal"])
    expect(ValidationError.isValidationError(other)).toBe(true)
  })

  it("help: no command, --help, a command's --help", async () => {
    expect(await run([])).toEqual({ _tag: "Help" })
    expect(await run(["--help"])).toEqual({ _tag: "Help" })
    expect(await run(["serve", "--help"])).toEqual({ _tag: "Help" })
    expect(await run(["keys", "create", "--help"])).toEqual({ _tag: "Help" })
  })

  it("refuses what @effect/cli cannot parse with a ValidationError", async () => {
    for (const argv of [
      ["frobnicate"],
      ["serve", "--port", "http"],
      ["serve", "--store", "sqlite"],
      ["serve", "--json"],
      ["serve", "--unknown"],
      ["migrate", "--port", "1"],
      ["keys", "roll", "sk_live"],
      ["keys", "roll"],
      ["keys", "create", "--mode", "prod"],
      ["fee-configs", "approve", "--json"],
      ["keys", "revoke"],
      ["keys", "revoke", "sk_dev_service_abc"],
      ["fee-configs", "apply"],
      ["processors", "approve", "fcc_1"],
      ["accounts", "delete"],
      ["listen"],
      ["listen", "--forward-to", "http://x", "--since", "yesterday"]
    ]) {
      const error = await failure(argv, { LEVY_API_KEY: "sk_dev_service_abc" })
      expect(ValidationError.isValidationError(error), argv.join(" ")).toBe(true)
    }
  })

  it("refuses what parses but cannot run with a UsageError that says why", async () => {
    const cases: ReadonlyArray<[ReadonlyArray<string>, Record<string, string>, RegExp]> = [
      [["serve", "--port", "70000"], {}, /invalid port: 70000/],
      [["serve"], { PORT: "http" }, /invalid port: http/],
      [["serve", "--store", "postgres"], {}, /DATABASE_URL/],
      [["keys", "create", "--name", "secretDev"], {}, /--name cannot be secretDev/],
      [["fee-configs", "approve"], {}, /fee-configs approve needs the held change's id \(fcc_/],
      [["processors", "approve"], {}, /processors approve needs the held change's id \(pcc_/],
      [["listen", "--forward-to", "http://x"], {}, /--api-key or LEVY_API_KEY/],
      [
        ["listen", "--forward-to", "http://x", "--api-key", "sk_prod_service_abc"],
        {},
        /test-mode secret key/
      ],
      [["listen", "--forward-to", "http://x"], { LEVY_API_KEY: "pk_dev_service_abc" }, /sk_dev_/],
      [["listen", "--forward-to", "localhost:3000"], { LEVY_API_KEY: "sk_dev_x" }, /http/]
    ]
    for (const [argv, env, message] of cases) {
      const error = await failure(argv, env)
      expect(error, argv.join(" ")).toBeInstanceOf(UsageError)
      expect((error as UsageError).message).toMatch(message)
    }
  })
})
