/** `pnpm start` until the server lands: one estimate and one compliant charge quote, printed. */
import { Either } from "effect"
import { Estimate, FeeSchedule, Ruleset } from "./index.js"

const show = (label: string, result: Either.Either<unknown, unknown>) =>
  console.log(label, JSON.stringify(Either.isRight(result) ? result.right : result.left, null, 2))

show(
  "Estimate, 100.00 USD in New York on a credit card:",
  Estimate.estimate(FeeSchedule.DEFAULT, Ruleset.DEFAULT, {
    amount: 10000,
    currency: "usd",
    region: "US-NY",
    cardType: "credit"
  })
)
show(
  "Charge quote, 100.00 USD in Colorado (2% cap) on a credit card:",
  Estimate.chargeQuote(FeeSchedule.DEFAULT, Ruleset.DEFAULT, {
    amount: 10000,
    currency: "usd",
    region: "US-CO",
    cardType: "credit"
  })
)
