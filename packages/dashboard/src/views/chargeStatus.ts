/** A charge's status as a badge: refunded, partly refunded, or its status (the list and the detail). */
import type { Charge } from "@levy/api"
import { badge } from "../dom.js"

export const statusBadge = (charge: Charge.Charge) =>
  charge.refunded
    ? badge("refunded", "neutral")
    : charge.amountRefunded > 0
      ? badge("partially refunded", "warn")
      : badge(
          charge.status,
          charge.status === "succeeded" ? "ok" : charge.status === "failed" ? "bad" : "warn"
        )
