/**
 * The `levy` CLI as real child processes on the embedded store: `serve` creates and prints
 * the development account once, writes dev-account.json (0600), serves with those keys,
 * exits 0 on SIGTERM; then `accounts create --json`, `keys create`, `keys roll` on the same
 * data directory; `serve` again (no second account, the new keys work, a live fee raise is
 * held), and `fee-configs approve` applies it.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { kinds } from "@levy/engine/access/Keys.js"
import { afterAll, describe, expect, it } from "vitest"
import { levy, type Proc, request, waitFor } from "./levyProcess.js"

const dataDir = mkdtempSync(join(tmpdir(), "levy-cli-"))

/** Waits until stdout says where the server listens; returns its base URL. */
const listening = async (proc: Proc): Promise<string> => {
  const match = await waitFor(proc, /Levy is listening on http:\/\/[^\s/]+:(\d+)/)
  return `http://127.0.0.1:${match[1]}`
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
  let firstSecretDev = ""
  let extraKey = ""
  let heldId = ""

  it("serve: creates and prints the development account, serves with its key, stops on SIGTERM", async () => {
    const proc = levy(serveArgs)
    running.push(proc)
    const base = await listening(proc)
    // It says which mode it runs in and why, listens on loopback only, and names the
    // test-mode rate limit with the setting that raises it (second review, item 12).
    expect(proc.stdout).toContain("Development mode (the default on the embedded store)")
    expect(proc.stdout).toContain("Levy is listening on http://127.0.0.1:")
    expect(proc.stdout).toContain("Listening on 127.0.0.1 only")
    expect(proc.stdout).toContain(
      "Rate limit: 100 requests per 1 minute per test-mode key; raise it with LEVY_RATE_LIMIT_TEST"
    )

    const file = join(dataDir, "dev-account.json")
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const saved = JSON.parse(readFileSync(file, "utf8"))
    expect(Object.keys(saved).sort()).toEqual(["accountId", "keys"])
    expect(Object.keys(saved.keys).sort()).toEqual([...kinds].sort())
    // Every key but the live secret one, which stdout (and so a log) never shows.
    for (const kind of kinds) {
      if (kind === "secretProd") expect(proc.stdout).not.toContain(saved.keys[kind])
      else expect(proc.stdout).toContain(saved.keys[kind])
    }
    expect(proc.stderr).not.toContain(saved.keys.secretProd)
    firstSecretDev = saved.keys.secretDev
    expect(proc.stdout.match(SECRET_KEY)).toEqual([firstSecretDev])
    // Structured logs on stderr.
    const logs = proc.stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l))
    expect(logs.map((l) => l.message)).toContain("development account created")

    const ok = await request(base, firstSecretDev, "/v1/regions/US-CO")
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ object: "region", regionCode: "US-CO" })
    const anonymous = await fetch(`${base}/v1/regions/US-CO`)
    expect(anonymous.status).toBe(401)
    await anonymous.text()

    expect(await stop(proc)).toBe(0)
  }, 150_000)

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
  }, 150_000)

  it("keys create --json adds a named test-mode secret key to the development account", async () => {
    const proc = levy(["keys", "create", "--name", "ci", "--json", ...storeArgs])
    running.push(proc)
    expect(await proc.exited).toBe(0)
    const created = JSON.parse(proc.stdout)
    const saved = JSON.parse(readFileSync(join(dataDir, "dev-account.json"), "utf8"))
    expect(created).toMatchObject({ accountId: saved.accountId, mode: "test", name: "ci" })
    expect(created.keyId).toMatch(/^key_/)
    expect(created.secret).toMatch(/^sk_dev_service_[0-9A-Za-z]{32}$/)
    // An additional key: dev-account.json keeps the account's four keys.
    expect(Object.values(saved.keys)).not.toContain(created.secret)
    extraKey = created.secret
  }, 150_000)

  it("keys roll secretDev replaces the development account's key, not the named one, and updates dev-account.json", async () => {
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
  }, 150_000)

  it("serve again: no second account; the rolled key, not the old one, and the created key work; a live fee raise is held", async () => {
    const proc = levy(serveArgs)
    running.push(proc)
    const base = await listening(proc)
    expect(proc.stdout).not.toMatch(SECRET_KEY)
    expect(proc.stdout).not.toContain("These keys are shown once")
    const saved = JSON.parse(readFileSync(join(dataDir, "dev-account.json"), "utf8"))

    expect((await request(base, saved.keys.secretDev, "/v1/events")).status).toBe(200)
    expect((await request(base, firstSecretDev, "/v1/events")).status).toBe(401)
    // The key from `keys create` writes test-mode data of the same account.
    const charge = await request(base, extraKey, "/v1/charges", {
      amount: 1000,
      currency: "usd",
      source: "tok_visa"
    })
    expect(charge.status).toBe(200)
    expect(charge.body).toMatchObject({ object: "charge", livemode: false })
    const seen = await request(base, saved.keys.secretDev, `/v1/charges/${charge.body.id}`)
    expect(seen.status).toBe(200)

    const held = await request(base, saved.keys.secretProd, "/v1/fee-configs", { percentage: 3.5 })
    expect(held.status).toBe(200)
    expect(held.body).toMatchObject({
      updated: false,
      pendingChange: { changes: { percentage: 3.5 } }
    })
    heldId = (held.body.pendingChange as { id: string }).id
    expect(await stop(proc)).toBe(0)
  }, 150_000)

  it("fee-configs approve applies the held live change as the owner", async () => {
    const proc = levy(["fee-configs", "approve", heldId, ...storeArgs])
    running.push(proc)
    expect(await proc.exited).toBe(0)
    expect(proc.stdout).toMatch(
      /Applied the pending live-mode fee change of acct_\S+\. In force: 3\.5% \+ 0\.3\./
    )
    // Nothing is pending any more.
    const again = levy(["fee-configs", "cancel", ...storeArgs])
    running.push(again)
    expect(await again.exited).toBe(2)
    expect(again.stderr).toContain("No fee configuration change is pending.")
  }, 150_000)

  it("--version prints the version of @levy/server's package.json and exits 0", async () => {
    const proc = levy(["--version"])
    running.push(proc)
    expect(await proc.exited).toBe(0)
    const manifest = JSON.parse(
      readFileSync(new URL("../package.json", import.meta.url), "utf8")
    ) as { version: string }
    expect(proc.stdout.trim()).toBe(manifest.version)
  }, 150_000)

  it("an unknown command exits 2 with the usage", async () => {
    const proc = levy(["frobnicate"])
    running.push(proc)
    expect(await proc.exited).toBe(2)
    expect(proc.stderr).toContain("Invalid subcommand for levy")
    expect(proc.stderr).toContain("Usage:")
  }, 150_000)
})
