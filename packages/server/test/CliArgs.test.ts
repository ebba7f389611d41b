/** `levy` command-line parsing (node:util parseArgs) and its defaults. */
import { describe, expect, it } from "vitest"
import { parse, UsageError } from "../src/cli/Args.js"

describe("levy arguments", () => {
  it("serve defaults: port 4000, embedded store in ./.levy; PORT and DATABASE_URL change them", () => {
    expect(parse(["serve"], {})).toEqual({
      _tag: "Serve",
      port: 4000,
      host: undefined,
      store: { store: "embedded", dataDir: ".levy", databaseUrl: undefined }
    })
    const fromEnv = parse(["serve"], { PORT: "8080", DATABASE_URL: "postgres://x/y" })
    expect(fromEnv).toMatchObject({
      port: 8080,
      store: { store: "postgres", databaseUrl: "postgres://x/y" }
    })
    expect(
      parse(["serve", "--port", "0", "--store", "memory", "--data-dir", "/tmp/d"], { PORT: "1" })
    ).toMatchObject({ port: 0, store: { store: "memory", dataDir: "/tmp/d" } })
  })

  it("accounts create, keys roll, migrate, help", () => {
    expect(parse(["accounts", "create", "--json", "--name", "Shop"], {})).toMatchObject({
      _tag: "AccountsCreate",
      json: true,
      name: "Shop"
    })
    expect(parse(["keys", "roll", "publishableProd", "--account", "acct_1"], {})).toMatchObject({
      _tag: "KeysRoll",
      kind: "publishableProd",
      account: "acct_1",
      json: false
    })
    expect(parse(["migrate"], {})).toMatchObject({ _tag: "Migrate" })
    expect(parse([], {})).toEqual({ _tag: "Help" })
    expect(parse(["serve", "--help"], {})).toEqual({ _tag: "Help" })
  })

  it("refuses bad command lines with a UsageError", () => {
    for (const argv of [
      ["frobnicate"],
      ["serve", "--port", "http"],
      ["serve", "--port", "70000"],
      ["serve", "--store", "sqlite"],
      ["serve", "--store", "postgres"],
      ["serve", "--json"],
      ["serve", "--unknown"],
      ["migrate", "--port", "1"],
      ["keys", "roll", "sk_live"],
      ["accounts", "delete"]
    ]) {
      expect(() => parse(argv, {}), argv.join(" ")).toThrow(UsageError)
    }
  })
})
