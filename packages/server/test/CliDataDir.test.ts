/**
 * `LEVY_DATA_DIR` names the data directory of every `levy` command that opens the embedded
 * store, as `--data-dir` does (docs/storage.md): `levy serve` run with it and no flag keeps its
 * database, key file and development account there (it opened `./.levy` whatever it said),
 * and the commands after it find that account's store there. The directory it makes is 0700.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { levy, type Proc, waitFor } from "./levyProcess.js"

const root = mkdtempSync(join(tmpdir(), "levy-data-dir-"))
/** Not there yet: Levy makes it. */
const dataDir = join(root, "levy")
const env = { LEVY_DATA_DIR: dataDir }
const running: Array<Proc> = []
afterAll(() => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL")
  rmSync(root, { recursive: true, force: true })
})

const start = (args: ReadonlyArray<string>) => {
  const proc = levy(args, env)
  running.push(proc)
  return proc
}

describe("LEVY_DATA_DIR", () => {
  it("levy serve keeps the store, its key and the development account there", async () => {
    const serve = start(["serve", "--port", "0", "--store", "embedded"])
    await waitFor(serve, /Levy is listening on http:\/\/[^\s/]+:(\d+)/)
    expect(existsSync(join(dataDir, "data", "PG_VERSION"))).toBe(true)
    // Made owner-only (docs/storage.md), as the administration socket needs.
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    expect(existsSync(join(dataDir, "data", "levy.lock"))).toBe(true)
    expect(existsSync(join(dataDir, "secret.key"))).toBe(true)
    expect(serve.stdout).toContain(join(dataDir, "dev-account.json"))
    serve.child.kill("SIGTERM")
    expect(await serve.exited).toBe(0)
  }, 150_000)

  it("levy keys list and levy migrate open the same store", async () => {
    const { accountId } = JSON.parse(readFileSync(join(dataDir, "dev-account.json"), "utf8"))
    const list = start(["keys", "list", "--json"])
    expect(await list.exited).toBe(0)
    const keys = JSON.parse(list.stdout) as Array<{ name: string }>
    expect(keys.map((k) => k.name).sort()).toEqual(
      ["publishableDev", "publishableProd", "secretDev", "secretProd"].sort()
    )
    expect(list.stderr).not.toContain("no account")
    const migrate = start(["migrate"])
    expect(await migrate.exited).toBe(0)
    expect(migrate.stdout).toContain("No pending migrations.")
    expect(accountId).toMatch(/^acct_/)
  }, 150_000)
})
