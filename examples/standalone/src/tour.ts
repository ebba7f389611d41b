/**
 * What a merchant's backend does with @levy/client: quote a fee, charge, refund part of it,
 * and walk a paged listing with `for await`.
 */
import { Levy } from "@levy/client"

export interface TourResult {
  readonly estimateFee: number
  readonly estimateCompliant: boolean
  readonly chargeId: string
  readonly chargeTotal: number
  readonly refundedAmount: number
  readonly refundedFee: number
  readonly listed: number
  readonly pages: number
}

/** Runs the tour against `baseUrl` with a test-mode secret key; `log` gets one line per step. */
export const tour = async (
  baseUrl: string,
  secretKey: string,
  log: (line: string) => void = () => undefined
): Promise<TourResult> => {
  const levy = new Levy(secretKey, { baseUrl })

  const estimate = await levy.estimates.create({
    amount: 10000,
    currency: "usd",
    region: "US-FL",
    cardType: "credit"
  })
  log(
    `estimate: ${estimate.baseAmount} + fee ${estimate.convenienceFee} = ${estimate.totalAmount} (compliant: ${estimate.compliant})`
  )

  const charge = await levy.charges.create({
    amount: 10000,
    currency: "usd",
    source: "tok_visa",
    customer: "cus_standalone",
    description: "Order 1001"
  })
  log(`charge ${charge.id}: ${charge.status}, total ${charge.totalAmount}`)

  const refund = await levy.refunds.create({ charge: charge.id, amount: 2500 })
  log(`refund ${refund.id}: ${refund.amount} of the amount and ${refund.convenienceFee} of the fee`)

  // a few more charges so the listing has pages
  for (let i = 0; i < 24; i++) {
    await levy.charges.create({ amount: 1000 + i, currency: "usd", customer: "cus_standalone" })
  }
  let listed = 0
  for await (const _charge of levy.charges.list({ customer: "cus_standalone", limit: 10 })) {
    listed++
  }
  let pages = 0
  for (let page = await levy.charges.list({ customer: "cus_standalone", limit: 10 }); ; ) {
    pages++
    const next = page.nextPage()
    if (next === undefined) break
    page = await next
  }
  log(`listed ${listed} charges in ${pages} pages`)

  return {
    estimateFee: estimate.convenienceFee,
    estimateCompliant: estimate.compliant,
    chargeId: charge.id,
    chargeTotal: charge.totalAmount,
    refundedAmount: refund.amount,
    refundedFee: refund.convenienceFee,
    listed,
    pages
  }
}
