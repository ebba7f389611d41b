/**
 * What a charge that named a quote shows of it (docs/quotes.md): the quote it honoured, and the
 * card charged as the processor described it; a charge without them shows neither.
 */
import type { Charge } from "@levy/api"
import { h } from "../dom.js"

/** "est_WzEsImFj…q2mX": a quote id is long (its signed fields); the whole one is its title. */
export const shortQuote = (id: string): string =>
  id.length <= 20 ? id : `${id.slice(0, 12)}…${id.slice(-4)}`

const quoteRow = (estimate: string) =>
  [
    "Quote honoured",
    [
      h("code", { title: estimate, "data-testid": "charge-estimate" }, shortQuote(estimate)),
      h("small", { class: "notice" }, " · the fee collected is never more than the fee shown")
    ]
  ] as const

const cardRow = (card: NonNullable<Charge.Charge["card"]>) =>
  [
    "Card charged",
    h(
      "span",
      { "data-testid": "charge-card" },
      [
        `funding ${card.funding}`,
        `network ${card.network ?? "unknown"}`,
        `country ${card.country ?? "unknown"}`,
        `category ${card.category}`
      ].join(" · ")
    )
  ] as const

/** The quote and the card, each a row of the charge's facts when the charge has it. */
export const quoteFacts = (charge: Charge.Charge) => [
  ...(charge.estimate === undefined ? [] : [quoteRow(charge.estimate)]),
  ...(charge.card === undefined ? [] : [cardRow(charge.card)])
]
