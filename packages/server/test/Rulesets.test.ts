/**
 * Ruleset versions over HTTP (docs/design.md §3): `GET /v1/rulesets` and `/v1/rulesets/{version}`
 * with a 404 listing the known versions; and pinning, on both stores: an account that pins
 * 1.0.0 gets 1.0.0's verdicts where the versions differ, on estimates, charges and checks,
 * each naming the version; an unknown pin is a 400 naming `rulesetVersion`; a live pin that
 * lets a charge collect more waits for a second key.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ComplianceRules, Ruleset, RulesetVersions } from "@levy/core"
import * as Config from "@levy/engine/feeConfigs/Config.js"
import { raisesFee } from "@levy/engine/feeConfigs/FeeRaise.js"
import { Effect } from "effect"
import { call, KEYS, LIVE_SECRET, SECRET, STORES, startWithStore } from "./support.js"

// AU, a Visa credit card, 1 November 2026. 1.0.0: "uncertain from 2026-07-01 (RBA change
// pending, outcome not found)"; 1.1.0: prohibited from 2026-10-01 (the RBA's Conclusions Paper).
const AU_VISA = { region: "AU", cardType: "credit", cardNetwork: "visa", date: "2026-11-01" }
/** The version "latest" names: 1.1.0 when written, later after the next release. */
const CURRENT = Ruleset.DEFAULT.version
const KNOWN = RulesetVersions.known().join(", ")

interface Body {
  readonly [key: string]: unknown
}

describe.each(STORES)("on the %s store", (_name, makeStore) => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  const approver = "sk_prod_service_approver0007"
  beforeAll(async () => {
    server = await startWithStore(makeStore(), {
      keys: [...KEYS, { secret: approver, accountId: "acct_1", keyId: "key_approver" }]
    })
  })
  afterAll(() => server.close())
  const req = (method: string, path: string, body?: unknown, key = SECRET) =>
    call(server.url, method, path, { key, ...(body === undefined ? {} : { body }) })

  describe("GET /v1/rulesets", () => {
    it("lists every version oldest first, the current one marked, with its CHANGELOG entry", async () => {
      expect(RulesetVersions.find("1.0.0")!.changes[0]).toMatch(/^All jurisdictions: /)
      const reply = await req("GET", "/v1/rulesets")
      expect(reply.status).toBe(200)
      const list = reply.body as { object: string; data: ReadonlyArray<Body>; has_more: boolean }
      expect(list).toMatchObject({ object: "list", has_more: false, url: "/v1/rulesets" })
      expect(list.data.map((v) => v.version)).toEqual(RulesetVersions.known())
      expect(list.data.filter((v) => v.current).map((v) => v.version)).toEqual([CURRENT])
      for (const v of list.data) {
        // Each snapshot's entry is its CHANGELOG entry (packages/rules/test/Versions.test.ts).
        const entry = RulesetVersions.find(v.version as string)!
        expect(v).toEqual({
          object: "ruleset",
          version: entry.version,
          released: entry.released,
          current: v.version === CURRENT,
          jurisdictions: expect.any(Number),
          changes: entry.changes
        })
      }
      const [first, second] = list.data
      expect(first!.jurisdictions).toBe(80)
      expect(second!.jurisdictions).toBeGreaterThan(80 + 50)
    })

    it("GET /v1/rulesets/1.0.0 is that version; an unknown one is a 404 listing the known", async () => {
      const one = await req("GET", "/v1/rulesets/1.0.0")
      expect(one.status).toBe(200)
      expect(one.body).toMatchObject({ object: "ruleset", version: "1.0.0", current: false })
      const missing = await req("GET", "/v1/rulesets/0.9.0")
      expect(missing.status).toBe(404)
      expect(missing.body).toEqual({
        error: {
          type: "invalid_request_error",
          code: "resource_missing",
          param: "version",
          message: expect.stringContaining(`Known versions: ${KNOWN}`)
        }
      })
    })
  })

  describe("pinning (test mode)", () => {
    const pin = (version: string, key = SECRET) =>
      req("POST", "/v1/fee-configs", { rulesetVersion: version }, key)

    it("follows the latest by default", async () => {
      const config = await req("GET", "/v1/fee-configs")
      expect(config.body).not.toHaveProperty("rulesetVersion")
    })

    it("an unknown or malformed version is a 400 naming rulesetVersion", async () => {
      const unknown = await pin("9.9.9")
      expect(unknown.status).toBe(400)
      expect(unknown.body).toMatchObject({
        error: { code: "parameter_invalid", param: "rulesetVersion" }
      })
      expect((unknown.body as { error: Body }).error.message).toContain(KNOWN)
      const malformed = await pin("newest")
      expect(malformed.status).toBe(400)
      expect(malformed.body).toMatchObject({ error: { param: "rulesetVersion" } })
    })

    it("a pinned account gets its version's verdict on checks, estimates and charges, naming it", async () => {
      // allowUncertain: 1.0.0's uncertain AU lets a fee through, 1.1.0's ban does not.
      await req("POST", "/v1/fee-configs", { allowUncertain: true })
      const decide = async () => {
        const check = await req("POST", "/v1/regions/check-compliance", {
          ...AU_VISA,
          percentage: 1,
          flatFee: 0
        })
        const estimate = await req("POST", "/v1/estimates", {
          ...AU_VISA,
          amount: 10000,
          currency: "aud"
        })
        // A charge is judged today (docs/design.md §3): the check's date is not sent.
        const { date: _today, ...onCharge } = AU_VISA
        const charge = await req("POST", "/v1/charges", {
          ...onCharge,
          amount: 10000,
          currency: "aud",
          source: "tok_visa"
        })
        expect([check.status, estimate.status, charge.status]).toEqual([200, 200, 200])
        const e = estimate.body as { convenienceFee: number; compliance: Body }
        const c = charge.body as { convenienceFee: number; compliance: Body }
        return {
          check: [(check.body as Body).reasonCode, (check.body as Body).rulesetVersion],
          estimate: [e.convenienceFee > 0, e.compliance.rulesetVersion],
          charge: [c.convenienceFee > 0, c.compliance.rulesetVersion]
        }
      }
      expect((await decide()).charge[1]).toBe(CURRENT)
      expect((await pin("1.1.0")).status).toBe(200)
      expect(await decide()).toEqual({
        check: ["fees_prohibited", "1.1.0"],
        estimate: [false, "1.1.0"],
        charge: [false, "1.1.0"]
      })
      const pinned = await pin("1.0.0")
      expect(pinned.status).toBe(200)
      expect(pinned.body).toMatchObject({ rulesetVersion: "1.0.0", updated: true })
      expect(await decide()).toEqual({
        check: ["legal_uncertainty", "1.0.0"],
        estimate: [true, "1.0.0"],
        charge: [true, "1.0.0"]
      })
      expect((await pin("latest")).body).not.toHaveProperty("rulesetVersion")
      expect((await decide()).charge[1]).toBe(CURRENT)
      await req("POST", "/v1/fee-configs", { allowUncertain: false })
    })

    it("a pinned account's regions on the configuration are read from its version", async () => {
      await req("POST", "/v1/fee-configs", { regionCodes: ["SE", "US-CO"] })
      const latest = (await req("GET", "/v1/fee-configs")).body as { regions: Body }
      expect(Object.keys(latest.regions).sort()).toEqual(["SE", "US-CO"])
      const old = (await pin("1.0.0")).body as { regions: Body }
      expect(Object.keys(old.regions)).toEqual(["US-CO"]) // 1.0.0 has no SE
      await pin("latest")
      await req("POST", "/v1/fee-configs", { regionCodes: [] })
    })
  })

  describe("pinning (live mode)", () => {
    it("a pin under which some charge collects more is held for a second key", async () => {
      const live = (body: unknown, key = LIVE_SECRET) => req("POST", "/v1/fee-configs", body, key)
      const opted = await live({ allowUncertain: true })
      const held = opted.body as { updated: boolean; pendingChange?: { id: string } }
      if (!held.updated) {
        await req(
          "POST",
          "/v1/fee-configs/pending/approve",
          { id: held.pendingChange!.id },
          approver
        )
      }
      const pinned = await live({ rulesetVersion: "1.0.0" })
      expect(pinned.body).toMatchObject({
        updated: false,
        pendingChange: { changes: { rulesetVersion: "1.0.0" } }
      })
      expect(pinned.body).not.toHaveProperty("rulesetVersion")
      const id = (pinned.body as { pendingChange: { id: string } }).pendingChange.id
      const approved = await req("POST", "/v1/fee-configs/pending/approve", { id }, approver)
      expect(approved.body).toMatchObject({ updated: true, rulesetVersion: "1.0.0" })
    })
  })
})

describe("FeeRaise with pins", () => {
  const rules = Effect.runSync(Effect.provide(ComplianceRules, ComplianceRules.Live))
  const opted: Config.StoredConfig = { ...Config.DEFAULT, allowUncertain: true }

  it("pinning 1.0.0 over 1.1.0 raises AU's fee where uncertain is allowed", () => {
    expect(Effect.runSync(raisesFee(rules, opted, { ...opted, rulesetVersion: "1.0.0" }))).toBe(
      true
    )
  })

  it("the same pin is no raise", () => {
    const pinned = { ...opted, rulesetVersion: "1.0.0" }
    expect(Effect.runSync(raisesFee(rules, pinned, pinned))).toBe(false)
  })
})
