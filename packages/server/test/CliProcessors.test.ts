/**
 * `levy processors set/show/delete/approve` as child processes on one PostgreSQL database
 * (the commands are the same on every store; the embedded store's CLI is tested in Cli.test.ts,
 * and a process on it spends about 2 s more CPU opening it),
 * against the local fake of Stripe (`LEVY_STRIPE_API_BASE_URL`): a key the fake refuses is not
 * saved (exit 1), a good one is saved and shown masked, never printed in full; delete removes
 * it. In live mode the owner's set applies at once with its event, and a change a key asked for
 * (held) is shown and approved from the command line.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { deleteProcessorConfig } from "@levy/engine/processorConfigs/deleteProcessorConfig.js"
import * as Store from "@levy/engine/Store.js"
import { EventRepository, type Ids, type Storage, Tenant, Testing } from "@levy/storage"
import { Effect, Exit, ManagedRuntime, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeStripe, startFakeStripe } from "../src/fakes/FakeStripe.js"
import { levy, type Proc } from "./levyProcess.js"

const dataDir = mkdtempSync(join(tmpdir(), "levy-cli-processors-"))
const storeArgs = ["--store", "postgres", "--data-dir", dataDir]
const scope = Effect.runSync(Scope.make())
let databaseUrl = ""
const WEBHOOK_SECRET = "whsec_cli0123456789abcdefghijklmn"
const LIVE_KEY = "sk_live_cliFake0123456789abcdef7777"

/** Runs `effect` on the data directory's store, between commands (one process at a time). */
const onStore = <A, E>(effect: Effect.Effect<A, E, Storage.Repositories | Ids>) => {
  const runtime = ManagedRuntime.make(Store.layer({ store: "postgres", dataDir, databaseUrl }))
  return runtime.runPromise(effect).finally(() => runtime.dispose())
}

let stripe: FakeStripe
let accountId = ""
const running: Array<Proc> = []

const run = async (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const proc = levy([...args, ...storeArgs], {
    LEVY_STRIPE_API_BASE_URL: stripe.url,
    DATABASE_URL: databaseUrl,
    ...env
  })
  running.push(proc)
  const code = await proc.exited
  return { code, stdout: proc.stdout, stderr: proc.stderr }
}

/** `processors set stripe` with the secret key read from the environment (env:STRIPE_KEY). */
const setStripe = (secretKey: string) =>
  run(
    [
      "processors",
      "set",
      "stripe",
      "--credential",
      "secretKey=env:STRIPE_KEY",
      "--credential",
      `webhookSecret=${WEBHOOK_SECRET}`,
      "--account",
      accountId
    ],
    { STRIPE_KEY: secretKey }
  )

beforeAll(async () => {
  databaseUrl = (
    await Effect.runPromise(Scope.extend(Testing.throwawayDatabase("levy_cli_processors"), scope))
  ).url
  stripe = await startFakeStripe({
    secretKey: "sk_test_cliFake0123456789abcdef4242",
    otherSecretKeys: [LIVE_KEY]
  })
  const created = await run(["accounts", "create", "--json"])
  expect(created.code).toBe(0)
  accountId = JSON.parse(created.stdout).accountId
}, 150_000)

afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL")
  await stripe?.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dataDir, { recursive: true, force: true })
})

describe("levy processors", () => {
  it("set: a key the processor refuses exits 1 with its reason and saves nothing", async () => {
    const refused = await setStripe("sk_test_wrong0123456789abcdef0000")
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("Stripe refused these credentials")
    expect(refused.stderr).not.toContain("sk_test_wrong0123456789abcdef0000")
    const none = await run(["processors", "show", "--account", accountId])
    expect(none.code).toBe(1)
    expect(none.stderr).toContain("No payment processor is configured")
  }, 150_000)

  it("set: a missing credential exits 2 naming it", async () => {
    const missing = await run([
      "processors",
      "set",
      "stripe",
      "--credential",
      `webhookSecret=${WEBHOOK_SECRET}`,
      "--account",
      accountId
    ])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain("credentials[secretKey]")
  }, 150_000)

  it("set, show, delete: saved after the fake accepts the key, shown masked, removed", async () => {
    const saved = await setStripe(stripe.secretKey)
    expect(saved.code).toBe(0)
    expect(saved.stdout).toContain("secretKey: sk_test_…4242")
    expect(saved.stdout).toContain(`/v1/processor-webhooks/${accountId}/test/stripe`)
    expect(saved.stdout + saved.stderr).not.toContain(stripe.secretKey)

    const shown = await run(["processors", "show", "--json", "--account", accountId])
    expect(shown.code).toBe(0)
    expect(JSON.parse(shown.stdout)).toMatchObject({
      object: "processor_config",
      processor: "stripe",
      livemode: false,
      credentials: { secretKey: "sk_test_…4242", webhookSecret: "whsec_…klmn" }
    })
    expect(shown.stdout).not.toContain(WEBHOOK_SECRET)
    // Live mode is separate.
    expect((await run(["processors", "show", "--live", "--account", accountId])).code).toBe(1)

    const deleted = await run(["processors", "delete", "--account", accountId])
    expect(deleted.code).toBe(0)
    expect(deleted.stdout).toContain("Disconnected stripe")
    expect((await run(["processors", "show", "--account", accountId])).code).toBe(1)
  }, 150_000)

  it("live mode: the owner's set applies at once with its event; a held delete is shown and approved", async () => {
    const live = Tenant.make(accountId, true)
    const saved = await run(
      [
        "processors",
        "set",
        "stripe",
        "--live",
        "--credential",
        "secretKey=env:STRIPE_KEY",
        "--account",
        accountId
      ],
      { STRIPE_KEY: LIVE_KEY }
    )
    expect(saved.code, saved.stderr).toBe(0)
    expect(saved.stdout).toContain("secretKey: sk_live_…7777")
    // A live key asks to delete it: held for approval.
    const held = await onStore(deleteProcessorConfig(live, { by: "key_live_a" }))
    const id = held.value.pendingChange?.id ?? ""
    expect(held.value.deleted).toBe(false)

    const shown = await run(["processors", "show", "--live", "--json", "--account", accountId])
    expect(JSON.parse(shown.stdout)).toMatchObject({
      credentials: { secretKey: "sk_live_…7777" },
      pendingChange: { id, action: "delete", status: "pending" }
    })
    const approved = await run(["processors", "approve", id, "--account", accountId])
    expect(approved.code, approved.stderr).toBe(0)
    expect(approved.stdout).toContain(`Applied the held live-mode change ${id}`)
    expect((await run(["processors", "show", "--live", "--account", accountId])).code).toBe(1)
    const again = await run(["processors", "approve", id, "--account", accountId])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain("No held processor configuration change")

    const types = await onStore(
      Effect.map(
        Effect.flatMap(EventRepository, (events) => events.list(live, { limit: 10 })),
        (page) => page.data.map((e) => e.type)
      )
    )
    expect(types).toEqual([
      "processor_config.deleted",
      "processor_config.change_requested",
      "processor_config.updated"
    ])
  }, 300_000)
})
