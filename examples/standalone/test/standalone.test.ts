/** The standalone example, run as a test: a fresh account's secret key drives the whole tour. */
import { describe, expect, it } from "@effect/vitest"
import { AuthenticationError, Levy } from "@levy/client"
import { startServer } from "../src/server.js"
import { tour } from "../src/tour.js"

describe("standalone example", () => {
  it("estimate, charge, refund and a paged listing with the new account's key", async () => {
    const running = await startServer()
    try {
      const lines: Array<string> = []
      const result = await tour(running.url, running.account.keys.secretDev, (l) => lines.push(l))
      expect(result).toMatchObject({
        // the configured 2.9 % + 0.30 is over the card networks' 3 % in Florida: the estimate
        // quotes the 300 a charge collects there
        estimateFee: 300,
        estimateCompliant: true,
        chargeTotal: 10320, // no region on the charge: the configured fee
        refundedAmount: 2500,
        refundedFee: 80, // a quarter of 320
        listed: 25,
        pages: 3
      })
      expect(lines).toHaveLength(4)
      // only this account's keys work: a made-up one is refused
      await expect(
        new Levy("sk_dev_service_notakey0000", { baseUrl: running.url }).charges.retrieve(
          result.chargeId
        )
      ).rejects.toBeInstanceOf(AuthenticationError)
    } finally {
      await running.close()
    }
  }, 30_000)
})
