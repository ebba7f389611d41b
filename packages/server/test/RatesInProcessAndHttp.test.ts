/**
 * A percentage means the same in-process as over HTTP: the engine's
 * `Rate.percent(p)` gives the verdict `POST /v1/regions/check-compliance` gives for the JSON
 * number p, and the fee `POST /v1/estimates` gives under a configuration of p. Before rates were
 * typed, the engine read a bare 2.9 as parts per million, so the two disagreed silently.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Compliance, Fee, FeeSchedule, Rate, Ruleset } from "@levy/core"
import { Either } from "effect"
import fc from "fast-check"
import { call, type Running, start } from "./support.js"

/** Percent text of at most 4 decimals, 0 to 6 %: around every cap in the ruleset. */
const percentText = fc
  .integer({ min: 0, max: 60_000 })
  .map((ppm) => Rate.percentText(Rate.partsPerMillion(ppm)))

describe("Rate.percent(p) in-process and p over HTTP agree", () => {
  let server: Running
  beforeAll(async () => {
    server = await start()
  })
  afterAll(() => server.close())

  it("on the compliance verdict", async () => {
    await fc.assert(
      fc.asyncProperty(
        percentText,
        fc.constantFrom("US-CO", "US-NY", "US-FL", "CA-ON", "GB", "AU"),
        fc.option(fc.integer({ min: 100, max: 1_000_000 }), { nil: undefined }),
        async (p, region, amount) => {
          const context = { region, cardType: "credit", date: "2026-01-15" } as const
          const sized = amount === undefined ? {} : { amount, currency: "usd" }
          const reply = await call(server.url, "POST", "/v1/regions/check-compliance", {
            body: { ...context, ...sized, percentage: Number(p), flatFee: 0.3 }
          })
          expect(reply.status).toBe(200)
          const verdict = Either.getOrThrow(
            Compliance.check(Ruleset.DEFAULT, {
              ...context,
              ...sized,
              percentage: Rate.percent(p),
              flatFee: Rate.flat("0.30")
            })
          )
          expect(reply.body).toMatchObject({
            compliant: verdict.compliant,
            reasonCode: verdict.reasonCode,
            maxPercentage: verdict.maxPercentage,
            maxFee: verdict.maxFee
          })
        }
      ),
      { numRuns: 40 }
    )
  })

  it("on the fee an estimate quotes", async () => {
    await fc.assert(
      fc.asyncProperty(
        percentText,
        fc.integer({ min: 50, max: 5_000_000 }),
        fc.constantFrom("add_on" as const, "gross_up" as const),
        async (p, amount, model) => {
          const config = await call(server.url, "POST", "/v1/fee-configs", {
            body: { percentage: Number(p), flatFee: 0.3, model }
          })
          expect(config.status).toBe(200)
          const reply = await call(server.url, "POST", "/v1/estimates", {
            body: { amount, currency: "usd" }
          })
          expect(reply.status).toBe(200)
          const schedule: FeeSchedule.FeeSchedule = {
            ...FeeSchedule.DEFAULT,
            model,
            percentage: Rate.percent(p),
            flatFee: Rate.flat("0.30")
          }
          const quote = Either.getOrThrow(Fee.quote(schedule, amount, "usd"))
          expect((reply.body as { convenienceFee: number }).convenienceFee).toBe(
            quote.convenienceFee
          )
        }
      ),
      { numRuns: 25 }
    )
  })
})
