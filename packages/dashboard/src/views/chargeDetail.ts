/**
 * One charge: amounts, the fee breakdown, the compliance verdict on the fee collected (why it
 * was lowered, rule codes, the disclosure as the payer reads it, the region's sources), its refunds with a full or partial refund form, and its events.
 */
import type { Charge, Dispute, Event, Refund } from "@levy/api"
import { Currency, Disclosure } from "@levy/core"
import {
  badge,
  errorBox,
  facts,
  field,
  guarded,
  h,
  mount,
  notice,
  nowrap,
  pairs,
  table
} from "../dom.js"
import { money, parseMinor, time } from "../format.js"
import type { Session } from "../session.js"
import { quoteFacts } from "./chargeQuote.js"
import { statusBadge } from "./chargeStatus.js"

/**
 * The amounts. A failed charge collected nothing: its fee and total are what was attempted,
 * shown struck through and named so, never as if collected.
 */
const amountFacts = (charge: Charge.Charge) => {
  const m = (minor: number) => money(minor, charge.currency)
  if (charge.status !== "failed")
    return [
      ["Amount", m(charge.amount)],
      ["Convenience fee", m(charge.convenienceFee)],
      ["Total", m(charge.totalAmount)]
    ] as const
  const attempted = (minor: number) => h("span", { class: "attempted" }, m(minor))
  return [
    ["Collected", h("strong", { "data-testid": "collected" }, m(0))],
    ["Amount attempted", attempted(charge.amount)],
    ["Fee attempted", attempted(charge.convenienceFee)],
    ["Total attempted", attempted(charge.totalAmount)]
  ] as const
}

const breakdown = (charge: Charge.Charge) => {
  const m = (minor: number) => money(minor, charge.currency)
  return h(
    "section",
    { class: "card", "aria-labelledby": "fee-h" },
    h("h2", { id: "fee-h" }, "Fee breakdown"),
    charge.status === "failed" &&
      notice("The charge failed: this is the fee it would have collected; nothing was collected."),
    facts([
      [
        "Configured rate",
        `${charge.feeStructure.percentage} % + ${charge.feeStructure.flatFee} ${charge.currency.toUpperCase()}`
      ],
      ["Percentage part", m(charge.feeBreakdown.percentage)],
      ["Flat part", m(charge.feeBreakdown.flatFee)],
      ["Adjustment (limits, compliance)", m(charge.adjustment)],
      [
        charge.status === "failed" ? "Convenience fee (not collected)" : "Convenience fee",
        h("strong", {}, m(charge.convenienceFee))
      ],
      ["Billing", charge.billingMode]
    ])
  )
}

/** Why the fee collected is below the configured one, when compliance lowered it. */
const lowered = (charge: Charge.Charge) => {
  const configured = charge.configured
  if (configured === undefined || configured.compliant) return []
  return [
    [
      "Lowered",
      h(
        "span",
        { "data-testid": "lowered" },
        `from ${money(configured.convenienceFee, charge.currency)}: ${configured.reason ?? configured.reasonCode ?? "not compliant"}`
      )
    ] as const
  ]
}

/**
 * The text shown to the payer. Charges stored before disclosures were rendered hold the
 * template: it is filled here for the fee the charge collected.
 */
const disclosureOf = (charge: Charge.Charge): string | null => {
  const text = charge.compliance.disclosureText
  const currency = Currency.lookup(charge.currency)
  if (text === null || !text.includes("{") || currency === undefined) return text
  return Disclosure.render(text, {
    amount: charge.amount,
    fee: charge.convenienceFee,
    flatPart: Math.min(charge.feeBreakdown.flatFee, charge.convenienceFee),
    currency
  })
}

/** The verdict and, when the charge has a region, that region's sources. */
const verdict = async (session: Session, charge: Charge.Charge) => {
  const c = charge.compliance
  const sources = h("ul", { class: "sources" })
  if (charge.region !== null) {
    await session.levy.regions
      .retrieve(charge.region)
      .then((region) =>
        mount(
          sources,
          ...region.sources.map((url) =>
            h(
              "li",
              {},
              /^https?:/.test(url)
                ? h("a", { href: url, rel: "noreferrer noopener", target: "_blank" }, url)
                : url
            )
          )
        )
      )
      .catch((error: unknown) => mount(sources, h("li", {}, errorBox(error))))
  }
  return h(
    "section",
    { class: "card", "aria-labelledby": "compliance-h" },
    h("h2", { id: "compliance-h" }, "Compliance"),
    facts([
      [
        charge.status === "failed" ? "Fee attempted" : "Fee collected",
        c.compliant
          ? badge(c.reasonCode === "no_region" ? "no rules checked" : "compliant", "ok")
          : badge("not compliant", "bad")
      ],
      ...lowered(charge),
      ["Reason", c.reason ?? "—"],
      ["Reason code", c.reasonCode ?? "—"],
      [
        "Rules",
        c.rules.length === 0 ? "—" : c.rules.map((rule) => h("code", { class: "rule" }, rule))
      ],
      ["Cap", c.maxPercentage === null ? "none" : `${c.maxPercentage} %`],
      [
        "Disclosure",
        h(
          "span",
          { "data-testid": "disclosure" },
          // Nothing was collected: no price was charged for the payer to be told of.
          charge.status === "failed"
            ? "— (the charge failed: nothing was collected)"
            : (disclosureOf(charge) ?? "—")
        )
      ],
      ["Ruleset", c.rulesetVersion],
      ["Region", charge.region ?? "—"]
    ]),
    charge.region === null ? false : h("h3", {}, `Sources for ${charge.region}`),
    charge.region === null ? false : sources
  )
}

const refundTable = (charge: Charge.Charge, refunds: ReadonlyArray<Refund.Refund>) =>
  refunds.length === 0
    ? notice("No refunds.")
    : table(
        "Refunds",
        ["Refund", "Created", "Amount", "Fee", "Total", "Status", "Metadata"],
        refunds.map((r) => [
          h("code", {}, r.id),
          time(r.created),
          nowrap(money(r.amount, charge.currency)),
          nowrap(money(r.convenienceFee, charge.currency)),
          nowrap(money(r.totalAmount, charge.currency)),
          r.status,
          pairs(r.metadata)
        ])
      )

/** Full (whatever is left, fee included pro rata) or partial (an amount of the base). */
const refundForm = (session: Session, charge: Charge.Charge, done: () => Promise<void>) => {
  const status = h("div", { "aria-live": "polite" })
  const full = h("input", { type: "radio", name: "kind", value: "full", checked: true })
  const partial = h("input", { type: "radio", name: "kind", value: "partial" })
  const amount = h("input", {
    type: "text",
    name: "amount",
    inputmode: "decimal",
    placeholder: "e.g. 12.50"
  })
  return h(
    "form",
    {
      class: "card",
      "aria-label": "Refund this charge",
      onsubmit: guarded(status, async () => {
        let minor: number | undefined
        if (partial.checked) {
          minor = parseMinor(amount.value, charge.currency)
          if (minor === undefined || minor === 0)
            throw new Error(
              `Enter the amount to refund in ${charge.currency.toUpperCase()}, e.g. 12.50.`
            )
        }
        await session.levy.refunds.create({
          charge: charge.id,
          ...(minor === undefined ? {} : { amount: minor })
        })
        await done()
      })
    },
    h("h2", {}, "Refund"),
    h(
      "fieldset",
      {},
      h("legend", {}, "How much"),
      h("label", { class: "check" }, full, "Full: everything not yet refunded"),
      h(
        "label",
        { class: "check" },
        partial,
        "Partial: part of the base amount (the fee goes back pro rata)"
      )
    ),
    field(`Amount (${charge.currency.toUpperCase()})`, amount),
    h("button", { type: "submit" }, "Refund"),
    status
  )
}

/** The charge's disputes (Stripe's `disputed` on the charge says there are some). */
const disputeSection = (charge: Charge.Charge, disputes: ReadonlyArray<Dispute.Dispute>) =>
  charge.disputed &&
  h(
    "section",
    { class: "card", "aria-labelledby": "disputes-h", "data-testid": "disputes" },
    h("h2", { id: "disputes-h" }, "Disputes"),
    table(
      "Disputes of this charge",
      ["Dispute", "Opened", "Amount", "Reason", "Status"],
      disputes.map((d) => [
        h("code", {}, d.id),
        time(d.created),
        money(d.amount, d.currency),
        d.reason,
        disputeBadge(d.status)
      ])
    )
  )

/** A dispute's status: open ones need the merchant, a lost one cost the money. */
export const disputeBadge = (status: Dispute.DisputeStatus) =>
  badge(status.replace("_", " "), status === "won" ? "ok" : status === "lost" ? "bad" : "warn")

const eventList = (events: ReadonlyArray<Event.Event>) =>
  events.length === 0
    ? notice("No events for this charge among the latest 100.")
    : h(
        "ul",
        { class: "events" },
        ...events.map((event) =>
          h(
            "li",
            {},
            h(
              "details",
              {},
              h("summary", {}, `${event.type} · ${time(event.created)} · ${event.id}`),
              h("pre", {}, JSON.stringify(event, null, 2))
            )
          )
        )
      )

export const chargeDetail = async (
  main: HTMLElement,
  session: Session,
  id: string
): Promise<void> => {
  const [charge, refunds, disputes, events] = await Promise.all([
    session.levy.charges.retrieve(id),
    session.levy.refunds.list({ charge: id, limit: 100 }),
    session.levy.disputes.list({ charge: id, limit: 100 }),
    session.levy.events.list({ limit: 100 })
  ])
  const mine = events.data.filter(
    (event) =>
      (event.data.object as { id?: string }).id === charge.id ||
      (event.data.object as { charge?: string }).charge === charge.id
  )
  const reload = () => chargeDetail(main, session, id)
  const open = !charge.refunded && charge.status === "succeeded"
  // The API refuses a refund while a dispute is open or after one was lost (docs/design.md §4).
  const blocking = disputes.data.find((d) => d.status !== "won")
  mount(
    main,
    h("p", {}, h("a", { href: "#/charges" }, "← All charges")),
    h("h1", {}, "Charge ", h("code", {}, charge.id)),
    h(
      "section",
      { class: "card" },
      facts([
        ["Status", statusBadge(charge)],
        [
          "Disputed",
          h(
            "span",
            { "data-testid": "disputed" },
            charge.disputed ? badge("disputed", "bad") : "no"
          )
        ],
        ...amountFacts(charge),
        [
          "Refunded",
          h(
            "span",
            { "data-testid": "amount-refunded" },
            money(charge.amountRefunded, charge.currency)
          )
        ],
        ["Customer", charge.customer ?? "—"],
        ["Description", charge.description ?? "—"],
        ...quoteFacts(charge),
        ["Card type", charge.cardType ?? "—"],
        ["Metadata", pairs(charge.metadata, "charge-metadata")],
        ["Created", time(charge.created)],
        ["Mode", charge.livemode ? "live" : "test"],
        ...(charge.failureMessage === undefined
          ? []
          : [["Failure", charge.failureMessage] as const])
      ])
    ),
    disputeSection(charge, disputes.data),
    h("div", { class: "grid" }, breakdown(charge), await verdict(session, charge)),
    h(
      "section",
      { class: "card", "aria-labelledby": "refunds-h" },
      h("h2", { id: "refunds-h" }, "Refunds"),
      refundTable(charge, refunds.data)
    ),
    open && blocking === undefined ? refundForm(session, charge, reload) : false,
    open &&
      blocking !== undefined &&
      notice(
        blocking.status === "lost"
          ? "No refund: the dispute was lost, so the card network already paid the cardholder back."
          : "No refund while the dispute is open: the card network pays the cardholder back if they win."
      ),
    h(
      "section",
      { class: "card", "aria-labelledby": "events-h" },
      h("h2", { id: "events-h" }, "Events"),
      eventList(mine)
    )
  )
}
