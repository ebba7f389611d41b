/**
 * `/v1/keys` over real HTTP with the storage-backed key resolver (keys could
 * never be revoked): the account's keys in the caller's mode, never a key itself; a revoked key
 * is refused from its next request; no key of another mode or account can be revoked, and a
 * key cannot revoke itself; publishable keys may do neither.
 */
import { existsSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Accounts from "@levy/engine/access/Accounts.js"
import { Layer, ManagedRuntime } from "effect"
import { chromium } from "playwright-core"
import * as KeyResolverStorage from "../src/access/KeyResolverStorage.js"
import { call, memoryStore, type Running, start } from "./support.js"

describe("/v1/keys", () => {
  let server: Running
  let runtime: ManagedRuntime.ManagedRuntime<
    Layer.Layer.Success<ReturnType<typeof memoryStore>>,
    never
  >
  let mine: Accounts.Created
  let other: Accounts.Created
  let approver: Accounts.CreatedKey

  beforeAll(async () => {
    runtime = ManagedRuntime.make(memoryStore())
    mine = await runtime.runPromise(Accounts.create("Mine"))
    other = await runtime.runPromise(Accounts.create("Other"))
    approver = await runtime.runPromise(
      Accounts.createSecretKey(mine.accountId, "test", "approver")
    )
    const context = Layer.succeedContext((await runtime.runtime()).context)
    server = await start({
      storage: context,
      resolver: KeyResolverStorage.layer({ touchEvery: 0 }).pipe(Layer.provide(context))
    })
  })
  afterAll(async () => {
    await server.close()
    await runtime.dispose()
  })

  const list = async (key: string) => {
    const reply = await call(server.url, "GET", "/v1/keys", { key })
    expect(reply.status, reply.text).toBe(200)
    return reply
  }
  const idOf = async (secret: string, by: string) => {
    const data = (
      (await list(by)).body as { data: Array<{ id: string; last4: string; name: string | null }> }
    ).data
    return data.find((k) => k.last4 === secret.slice(-4))?.id ?? ""
  }

  it("lists the account's keys of the caller's mode, never the keys", async () => {
    const reply = await list(mine.keys.secretDev)
    const data = (reply.body as { data: Array<Record<string, unknown>> }).data
    expect(data.map((k) => k.name).sort()).toStrictEqual([
      "approver",
      "publishableDev",
      "secretDev"
    ])
    expect(data[0]).toMatchObject({ object: "api_key", livemode: false, revoked: false })
    for (const secret of [...Object.values(mine.keys), approver.secret]) {
      expect(reply.text).not.toContain(secret)
    }
  })

  it("a revoked key is refused from its next request", async () => {
    const ok = await call(server.url, "POST", "/v1/estimates", {
      key: mine.keys.publishableDev,
      body: { amount: 1000, currency: "usd" }
    })
    expect(ok.status).toBe(200)
    const id = await idOf(mine.keys.publishableDev, mine.keys.secretDev)
    const revoked = await call(server.url, "POST", `/v1/keys/${id}/revoke`, {
      key: mine.keys.secretDev
    })
    expect(revoked.status, revoked.text).toBe(200)
    expect(revoked.body).toMatchObject({ id, revoked: true, kind: "publishable" })
    const refused = await call(server.url, "POST", "/v1/estimates", {
      key: mine.keys.publishableDev,
      body: { amount: 1000, currency: "usd" }
    })
    expect(refused.status).toBe(401)
  })

  it("another mode's or account's key is a 404; a key cannot revoke itself; publishable keys are refused", async () => {
    const live = await idOf(mine.keys.secretProd, mine.keys.secretProd)
    const crossMode = await call(server.url, "POST", `/v1/keys/${live}/revoke`, {
      key: mine.keys.secretDev
    })
    expect(crossMode.status).toBe(404)
    const theirs = await idOf(other.keys.secretDev, other.keys.secretDev)
    const crossAccount = await call(server.url, "POST", `/v1/keys/${theirs}/revoke`, {
      key: mine.keys.secretDev
    })
    expect(crossAccount.status).toBe(404)
    expect((await list(other.keys.secretDev)).status).toBe(200)
    const self = await call(server.url, "POST", `/v1/keys/${approver.keyId}/revoke`, {
      key: approver.secret
    })
    expect(self.status).toBe(400)
    expect(self.body).toMatchObject({ error: { code: "key_in_use" } })
    expect(
      (await call(server.url, "GET", "/v1/keys", { key: mine.keys.publishableProd })).status
    ).toBe(403)
    // The approver revokes the key it was made beside.
    const byApprover = await call(
      server.url,
      "POST",
      `/v1/keys/${await idOf(mine.keys.secretDev, approver.secret)}/revoke`,
      {
        key: approver.secret
      }
    )
    expect(byApprover.status).toBe(200)
    expect((await call(server.url, "GET", "/v1/keys", { key: mine.keys.secretDev })).status).toBe(
      401
    )
  })

  it.runIf(existsSync("/usr/bin/chromium") || process.env.CI === "true")(
    "the dashboard's API keys page revokes a key (headless Chromium)",
    async () => {
      const extra = await runtime.runPromise(
        Accounts.createSecretKey(mine.accountId, "live", "leaked")
      )
      const browser = await chromium.launch({
        executablePath: "/usr/bin/chromium",
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
      })
      try {
        const page = await browser.newPage()
        page.setDefaultTimeout(20_000)
        page.on("dialog", (dialog) => void dialog.accept())
        await page.goto(`${server.url}/dashboard#/keys`)
        await page.getByLabel("Secret key").fill(mine.keys.secretProd)
        await page.getByRole("button", { name: "Sign in" }).click()
        await page.getByRole("link", { name: "API keys" }).click()
        await page.locator(`button[data-key="${extra.keyId}"]`).click()
        await page.getByText(`Revoked ${extra.keyId}`).waitFor()
        // The page never shows a key itself.
        expect(await page.content()).not.toContain(extra.secret)
      } finally {
        await browser.close()
      }
      const refused = await call(server.url, "GET", "/v1/keys", { key: extra.secret })
      expect(refused.status).toBe(401)
    },
    60_000
  )
})
