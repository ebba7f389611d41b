/**
 * The CLI across stores, as real child processes: a second server on an embedded data
 * directory is refused (naming the holder and what to do); PostgreSQL then the embedded store on one data directory keep both
 * development accounts' keys; a DATABASE_URL naming no database is one line that says how to
 * fix it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Testing } from "@levy/storage"
import { Effect, Exit, Scope } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { levy, type Proc, waitFor } from "./levyProcess.js"

const dataDir = mkdtempSync(join(tmpdir(), "levy-cli-stores-"))
const running: Array<Proc> = []
const scope = Effect.runSync(Scope.make())

afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL")
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dataDir, { recursive: true, force: true })
})

const start = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const proc = levy(args, env)
  running.push(proc)
  return proc
}

const listening = (proc: Proc) => waitFor(proc, /Levy is listening on http:\/\/[^\s/]+:(\d+)/)

const stop = async (proc: Proc) => {
  proc.child.kill("SIGTERM")
  return proc.exited
}

const accountIn = (file: string) =>
  (JSON.parse(readFileSync(join(dataDir, file), "utf8")) as { accountId: string }).accountId

describe("levy on several stores", () => {
  it("PostgreSQL, then the embedded store: one dev-account file each, no keys lost", async () => {
    const { url } = await Effect.runPromise(
      Scope.extend(Testing.throwawayDatabase("levy_cli"), scope)
    )
    // On PostgreSQL only a server run for development (--dev) makes the development account.
    const pg = start(["serve", "--port", "0", "--dev", "--data-dir", dataDir], {
      DATABASE_URL: url
    })
    await listening(pg)
    expect(pg.stdout).toContain("Development mode (--dev)")
    expect(await stop(pg)).toBe(0)
    // Without it, on PostgreSQL: production, said so, on every interface.
    const production = start(["serve", "--port", "0", "--data-dir", dataDir], {
      DATABASE_URL: url
    })
    await listening(production)
    expect(production.stdout).toContain("Production mode (the default on the postgres store)")
    expect(production.stdout).not.toContain("Rate limit:")
    expect(production.stdout).toContain("Levy is listening on http://localhost:")
    expect(await stop(production)).toBe(0)
    const embedded = start(["serve", "--port", "0", "--store", "embedded", "--data-dir", dataDir])
    await listening(embedded)
    expect(await stop(embedded)).toBe(0)
    const postgresAccount = accountIn("dev-account.postgres.json")
    const embeddedAccount = accountIn("dev-account.json")
    expect(postgresAccount).toMatch(/^acct_/)
    expect(embeddedAccount).toMatch(/^acct_/)
    expect(embeddedAccount).not.toBe(postgresAccount)
  }, 240_000)

  it("a second server on the embedded data directory fails, naming the holder; the first keeps serving", async () => {
    const serve = start(["serve", "--port", "0", "--store", "embedded", "--data-dir", dataDir])
    await listening(serve)
    // The other commands run through the server (CliAdmin.test.ts); a second server cannot.
    const second = start(["serve", "--port", "0", "--store", "embedded", "--data-dir", dataDir])
    expect(await second.exited).toBe(1)
    expect(second.stdout).not.toContain("Levy is listening")
    expect(second.stderr.trim().split("\n")).toHaveLength(1)
    expect(second.stderr).toContain(`in use by process ${serve.child.pid}`)
    expect(second.stderr).toContain("levy serve")
    expect(second.stderr).toContain("stop that process first")
    expect(await stop(serve)).toBe(0)
    // Released on exit: the next process opens it.
    expect(existsSync(join(dataDir, "data", "levy.lock"))).toBe(false)
    const after = start(["keys", "create", "--store", "embedded", "--data-dir", dataDir, "--json"])
    expect(await after.exited).toBe(0)
    expect(after.stdout).toMatch(/sk_dev_/)
  }, 240_000)

  it("a DATABASE_URL naming no database is one line saying how to fix it", async () => {
    const name = "levy_cli_no_such_database"
    const proc = start(["migrate"], { DATABASE_URL: `${Testing.PG_SERVER}/${name}` })
    expect(await proc.exited).toBe(1)
    const lines = proc.stderr.trim().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`database "${name}" does not exist`)
    expect(lines[0]).toContain(`createdb ${name}`)
  }, 240_000)
})
