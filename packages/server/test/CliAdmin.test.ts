/**
 * Administration while `levy serve` holds the embedded store, as real child processes on a
 * data directory named by LEVY_DATA_DIR: the server listens on `levy.sock` there (0600, in a
 * 0700 directory) and runs the `levy` commands sent to it on its own store. A second person's
 * live key made with `levy keys create --mode live` while the server runs approves a live fee
 * raise over HTTP (four eyes); list, revoke, fee-configs cancel, processors show and migrate
 * go through it too, with their exit codes. A directory others can write keeps the socket
 * closed, and the lock's message no longer sends anyone to an API that has no such operation.
 * LEVY_DATA_DIR names the whole data directory, as `--data-dir` does (docs/storage.md): the
 * server makes it (0700) and keeps its database, lock, key file and development account there.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { unsafeDirectory } from "../src/cli/AdminSocket.js"
import { levy, type Proc, request, waitFor } from "./levyProcess.js"

const root = mkdtempSync(join(tmpdir(), "levy-admin-"))
/** Not there yet: Levy makes it. */
const dataDir = join(root, "levy")
const running: Array<Proc> = []
afterAll(() => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL")
  rmSync(root, { recursive: true, force: true })
})

const start = (args: ReadonlyArray<string>, dir = dataDir) => {
  const proc = levy(args, { LEVY_DATA_DIR: dir })
  running.push(proc)
  return proc
}

/** `levy <args>` to its end: exit code and output. */
const command = async (args: ReadonlyArray<string>, dir = dataDir) => {
  const proc = start(args, dir)
  const code = await proc.exited
  return { code, stdout: proc.stdout, stderr: proc.stderr }
}

const listening = async (proc: Proc) => {
  const match = await waitFor(proc, /Levy is listening on http:\/\/[^\s/]+:(\d+)/)
  return `http://127.0.0.1:${match[1]}`
}

describe("levy commands while levy serve runs", () => {
  it("go through the server's owner-only socket, on its store", async () => {
    const serve = start(["serve", "--port", "0"])
    const base = await listening(serve)
    const socket = join(dataDir, "levy.sock")
    expect(statSync(socket).isSocket()).toBe(true)
    expect(statSync(socket).mode & 0o777).toBe(0o600)
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    expect(serve.stdout).toContain(`through ${socket} (owner only)`)
    // Everything of the store in LEVY_DATA_DIR (it opened ./.levy whatever it said).
    expect(existsSync(join(dataDir, "data", "PG_VERSION"))).toBe(true)
    expect(existsSync(join(dataDir, "data", "levy.lock"))).toBe(true)
    expect(existsSync(join(dataDir, "secret.key"))).toBe(true)
    expect(serve.stdout).toContain(join(dataDir, "dev-account.json"))
    const owner = JSON.parse(readFileSync(join(dataDir, "dev-account.json"), "utf8")) as {
      accountId: string
      keys: { secretProd: string }
    }

    // A second live key, made while the server holds the store.
    const created = await command(["keys", "create", "--mode", "live", "--name", "bob", "--json"])
    expect(created.stderr).toBe("")
    expect(created.code).toBe(0)
    const bob = JSON.parse(created.stdout) as { keyId: string; secret: string; mode: string }
    expect(bob).toMatchObject({ accountId: owner.accountId, mode: "live", name: "bob" })
    expect(bob.secret).toMatch(/^sk_prod_/)

    // Four eyes: the owner's live key raises the fee, held; bob's approves it.
    const held = await request(base, owner.keys.secretProd, "/v1/fee-configs", { percentage: 3.5 })
    expect(held.body).toMatchObject({ updated: false })
    const heldId = (held.body.pendingChange as { id: string }).id
    const approved = await request(base, bob.secret, "/v1/fee-configs/pending/approve", {
      id: heldId
    })
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ percentage: 3.5, livemode: true })

    // The others, with the exit codes they have without a server.
    const list = await command(["keys", "list", "--json"])
    expect(list.code).toBe(0)
    expect((JSON.parse(list.stdout) as Array<{ id: string }>).map((k) => k.id)).toContain(bob.keyId)
    const raise = await request(base, owner.keys.secretProd, "/v1/fee-configs", { percentage: 3.9 })
    expect(raise.body).toMatchObject({ updated: false })
    const cancel = await command(["fee-configs", "cancel"])
    expect(cancel.code).toBe(0)
    expect(cancel.stdout).toContain("Cancelled the pending live-mode fee change")
    const nothing = await command(["fee-configs", "cancel"])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain("No fee configuration change is pending.")
    const show = await command(["processors", "show", "--live"])
    expect(show.code).toBe(1)
    expect(show.stderr).toContain("No payment processor is configured")
    const noChange = await command(["processors", "cancel"])
    expect(noChange.code).toBe(2)
    const diff = await command([
      "rules",
      "diff",
      "1.0.0",
      "latest",
      "--account",
      owner.accountId,
      "--json"
    ])
    expect(diff.code).toBe(0)
    expect(JSON.parse(diff.stdout)).toMatchObject({ account: owner.accountId, livemode: false })
    const other = await command(["accounts", "create", "--name", "Second", "--json"])
    expect(other.code).toBe(0)
    const second = JSON.parse(other.stdout) as { keys: { secretDev: string } }
    expect((await request(base, second.keys.secretDev, "/v1/events")).status).toBe(200)
    // A roll through the server keeps dev-account.json true to the store, as without it.
    const rolled = await command(["keys", "roll", "secretDev", "--json"])
    expect(rolled.code).toBe(0)
    const { secret } = JSON.parse(rolled.stdout) as { secret: string }
    const saved = JSON.parse(readFileSync(join(dataDir, "dev-account.json"), "utf8"))
    expect(saved.keys.secretDev).toBe(secret)
    expect((await request(base, secret, "/v1/events")).status).toBe(200)
    const migrate = await command(["migrate"])
    expect(migrate.code).toBe(0)
    expect(migrate.stdout).toContain("No pending migrations.")
    const revoke = await command(["keys", "revoke", bob.keyId])
    expect(revoke.code).toBe(0)
    expect((await request(base, bob.secret, "/v1/fee-configs")).status).toBe(401)

    serve.child.kill("SIGTERM")
    expect(await serve.exited).toBe(0)
    expect(existsSync(socket)).toBe(false)
  }, 240_000)

  it("a data directory others can write keeps the socket closed; the lock says what to do", async () => {
    const open = mkdtempSync(join(tmpdir(), "levy-admin-open-"))
    try {
      chmodSync(open, 0o770)
      expect(unsafeDirectory(open)).toContain("writable by its group or by everyone")
      const serve = start(["serve", "--port", "0"], open)
      await listening(serve)
      expect(serve.stdout).toContain("Administration socket not opened")
      expect(existsSync(join(open, "levy.sock"))).toBe(false)
      const refused = await command(["keys", "create", "--mode", "live"], open)
      expect(refused.code).toBe(1)
      expect(refused.stdout).not.toMatch(/sk_prod_/)
      expect(refused.stderr).toContain(`in use by process ${serve.child.pid}`)
      expect(refused.stderr).toContain("stop that process first")
      expect(refused.stderr).not.toContain("use its API")
      expect(refused.stderr).not.toContain("POST /v1")
      serve.child.kill("SIGTERM")
      expect(await serve.exited).toBe(0)
    } finally {
      rmSync(open, { recursive: true, force: true })
    }
  }, 240_000)

  it("the socket's directory: this user's, not writable by others", () => {
    chmodSync(dataDir, 0o755)
    expect(unsafeDirectory(dataDir)).toBeUndefined()
    chmodSync(dataDir, 0o707)
    expect(unsafeDirectory(dataDir)).toContain("mode 707")
    chmodSync(dataDir, 0o700)
    expect(unsafeDirectory(dataDir)).toBeUndefined()
  })
})
