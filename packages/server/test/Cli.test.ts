/**
 * The `levy` CLI as real child processes on the embedded store: `serve` creates and prints
 * the development account once, writes dev-account.json (0600), serves with those keys,
 * does not create a second account on restart and exits 0 on SIGTERM; then
 * `accounts create --json` and `keys roll` on the same data directory.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { kinds } from "../src/Keys.js"

const ROOT = resolve(import.meta.dirname, "../../..")
const MAIN = "packages/server/src/main.ts"
const dataDir = mkdtempSync(join(tmpdir(), "levy-cli-"))

interface Proc {
  readonly child: ChildProcess
  stdout: string
  stderr: string
  readonly exited: Promise<number | null>
}

const levy = (args: ReadonlyArray<string>): Proc => {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "", PORT: "", REDIS_URL: "" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const proc: Proc = {
    child,
    stdout: "",
    stderr: "",
    exited: new Promise((done) => child.on("exit", (code) => done(code)))
  }
  child.stdout?.on("data", (chunk: Buffer) => {
    proc.stdout += chunk.toString()
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    proc.stderr += chunk.toString()
  })
  return proc
}

/** Waits until stdout says where the server listens; returns its base URL. */
const listening = async (proc: Proc, timeoutMs = 30_000): Promise<string> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const match = /Levy is listening on http:\/\/localhost:(\d+)/.exec(proc.stdout)
    if (match) return `http://127.0.0.1:${match[1]}`
    if (proc.child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`server did not start:\n${proc.stdout}\n${proc.stderr}`)
}

/** SIGTERM, then the exit code; a server that does not exit fails the test by its timeout. */
const stop = async (proc: Proc): Promise<number | null> => {
  proc.child.kill("SIGTERM")
  return proc.exited
}

const running: Array<Proc> = []
afterAll(() => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL")
  rmSync(dataDir, { recursive: true, force: true })
})

/** Every command here runs on the same embedded store. */
const storeArgs = ["--store", "embedded", "--data-dir", dataDir]
const serveArgs = ["serve", "--port", "0", ...storeArgs]
const SECRET_KEY = /sk_dev_service_[0-9A-Za-z]{32}/g

describe("levy CLI", () => {
  let secretDev = ""

  it("serve: creates and prints the development account, serves with its key, stops on SIGTERM", async () => {
    const proc = levy(serveArgs)
    running.push(proc)
    const base = await listening(proc)

    const file = join(dataDir, "dev-account.json")
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const saved = JSON.parse(readFileSync(file, "utf8"))
    expect(Object.keys(saved).sort()).toEqual(["accountId", "keys"])
    expect(Object.keys(saved.keys).sort()).toEqual([...kinds].sort())
    for (const kind of kinds) expect(proc.stdout).toContain(saved.keys[kind])
    secretDev = saved.keys.secretDev
    expect(proc.stdout.match(SECRET_KEY)).toEqual([secretDev])
    // Structured logs on stderr.
    const logs = proc.stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l))
    expect(logs.map((l) => l.message)).toContain("development account created")

    const ok = await fetch(`${base}/v1/regions/US-CO`, {
      headers: { authorization: `Bearer ${secretDev}` }
    })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ object: "region", regionCode: "US-CO" })
    const anonymous = await fetch(`${base}/v1/regions/US-CO`)
    expect(anonymous.status).toBe(401)
    await anonymous.text()

    expect(await stop(proc)).toBe(0)
  }, 45_000)

  it("serve again on the same data directory: no second account, the first key still works", async () => {
    const proc = levy(serveArgs)
    running.push(proc)
    const base = await listening(proc)
    expect(proc.stdout).not.toMatch(SECRET_KEY)
    expect(proc.stdout).not.toContain("development account")
    const saved = JSON.parse(readFileSync(join(dataDir, "dev-account.json"), "utf8"))
    expect(saved.keys.secretDev).toBe(secretDev)
    const ok = await fetch(`${base}/v1/regions/US-CO`, {
      headers: { authorization: `Bearer ${secretDev}` }
    })
    expect(ok.status).toBe(200)
    await ok.text()
    expect(await stop(proc)).toBe(0)
  }, 30_000)

  it("accounts create --json prints the account id and its four keys", async () => {
    const proc = levy(["accounts", "create", "--json", ...storeArgs])
    running.push(proc)
    expect(await proc.exited).toBe(0)
    const created = JSON.parse(proc.stdout)
    expect(Object.keys(created).sort()).toEqual(["accountId", "keys"])
    expect(created.accountId).toMatch(/^acct_/)
    const saved = JSON.parse(readFileSync(join(dataDir, "dev-account.json"), "utf8"))
    expect(created.accountId).not.toBe(saved.accountId)
    expect(created.keys.secretDev).toMatch(/^sk_dev_service_[0-9A-Za-z]{32}$/)
    expect(created.keys.publishableDev).toMatch(/^pk_dev_service_[0-9A-Za-z]{32}$/)
    expect(created.keys.secretProd).toMatch(/^sk_prod_service_[0-9A-Za-z]{32}$/)
    expect(created.keys.publishableProd).toMatch(/^pk_prod_service_[0-9A-Za-z]{32}$/)
  }, 30_000)

  it("keys roll secretDev replaces the development account's key and updates dev-account.json", async () => {
    const file = join(dataDir, "dev-account.json")
    const before = JSON.parse(readFileSync(file, "utf8"))
    const proc = levy(["keys", "roll", "secretDev", "--json", ...storeArgs])
    running.push(proc)
    expect(await proc.exited).toBe(0)
    const rolled = JSON.parse(proc.stdout)
    expect(rolled.accountId).toBe(before.accountId)
    expect(rolled.kind).toBe("secretDev")
    expect(rolled.secret).toMatch(/^sk_dev_service_[0-9A-Za-z]{32}$/)
    expect(rolled.revoked).toHaveLength(1)
    const after = JSON.parse(readFileSync(file, "utf8"))
    expect(after.keys).toEqual({ ...before.keys, secretDev: rolled.secret })
    expect(statSync(file).mode & 0o777).toBe(0o600)
  }, 30_000)

  it("an unknown command exits 2 with the usage", async () => {
    const proc = levy(["frobnicate"])
    running.push(proc)
    expect(await proc.exited).toBe(2)
    expect(proc.stderr).toContain("Usage:")
  }, 30_000)
})
