/**
 * `POST /pay`: the page sends the card (`source`) and the quote it showed (`estimate`); the
 * backend charges its own order with the secret key, naming the quote, so Levy collects no more
 * than the fee the shopper saw. Levy's refusals (an altered, used or expired quote, a declined
 * card) go back to the page in Levy's error shape.
 */
import { CardError, type Levy, LevyError, NetworkError } from "@levy/client"
import type { Order } from "./order.js"

export interface Answer {
  readonly status: number
  readonly body: unknown
}

const invalid = (param: string, code: string, message: string): Answer => ({
  status: 400,
  body: { error: { type: "invalid_request_error", code, message, param } }
})

/** The field `name` of the request body, when it is a non-empty string. */
const text = (body: unknown, name: string): string | Answer => {
  const value =
    typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined
  if (value === undefined) return invalid(name, "parameter_missing", `${name} is required`)
  if (typeof value !== "string" || value.length === 0)
    return invalid(name, "parameter_invalid", `${name} must be a non-empty string`)
  return value
}

/** Charges `order` with the page's card and quote; the charge, or the refusal. */
export const pay = async (levy: Levy, order: Order, body: unknown): Promise<Answer> => {
  const source = text(body, "source")
  if (typeof source !== "string") return source
  const estimate = text(body, "estimate")
  if (typeof estimate !== "string") return estimate
  try {
    const charge = await levy.charges.create({
      amount: order.amount,
      currency: order.currency,
      region: order.region,
      source,
      estimate,
      description: order.description
    })
    return { status: 200, body: charge }
  } catch (error) {
    if (!(error instanceof LevyError)) throw error
    return { status: statusOf(error), body: { error: wireOf(error) } }
  }
}

/** Levy's status; without one the request never got an answer (503) or never left (400). */
const statusOf = (error: LevyError): number =>
  error.statusCode ?? (error instanceof NetworkError ? 503 : 400)

/** The error as Levy sent it: a decline also names its reason and the failed charge. */
const wireOf = (error: LevyError) => ({
  type: error.type,
  code: error.code,
  message: error.message,
  param: error.param ?? null,
  ...(error instanceof CardError ? { declineCode: error.declineCode, charge: error.charge } : {})
})
