/**
 * Charges: a cursor-paged table (newest first) filtered by customer and creation date, and,
 * at `#/charges/<id>`, the charge's detail.
 */
import type { Charge, ListParams } from "@levy/api"
import type { Page } from "@levy/client"
import { badge, button, field, guarded, h, mount, notice, nowrap, table } from "../dom.js"
import { dayStart, money, time } from "../format.js"
import type { Session } from "../session.js"
import { chargeDetail } from "./chargeDetail.js"
import { statusBadge } from "./chargeStatus.js"

const PAGE_SIZE = 20
const DAY = 86_400

type Query = Omit<ListParams.ChargeListParams, "limit">

const rows = (charges: ReadonlyArray<Charge.Charge>) =>
  charges.map((charge) => [
    h("a", { href: `#/charges/${encodeURIComponent(charge.id)}` }, charge.id),
    time(charge.created),
    charge.customer ?? "—",
    nowrap(money(charge.amount, charge.currency)),
    nowrap(money(charge.convenienceFee, charge.currency)),
    nowrap(money(charge.totalAmount, charge.currency)),
    [statusBadge(charge), charge.disputed && " ", charge.disputed && badge("disputed", "bad")]
  ])

/** The filter form's values as list parameters (the end date includes its whole day). */
const queryOf = (customer: string, from: string, to: string): Query => {
  const gte = dayStart(from)
  const end = dayStart(to)
  return {
    ...(customer.trim() === "" ? {} : { customer: customer.trim() }),
    ...(gte === undefined ? {} : { "created[gte]": gte }),
    ...(end === undefined ? {} : { "created[lt]": end + DAY })
  }
}

export const charges = async (
  main: HTMLElement,
  session: Session,
  rest: ReadonlyArray<string>
): Promise<void> => {
  if (rest[0] !== undefined) return chargeDetail(main, session, rest[0])
  const status = h("div", { "aria-live": "polite" })
  const results = h("div", {})
  const customer = h("input", { type: "search", name: "customer", placeholder: "cus_…" })
  const from = h("input", { type: "date", name: "from" })
  const to = h("input", { type: "date", name: "to" })

  const show = async (query: Query) => {
    const page: Page<Charge.Charge> = await session.levy.charges.list({
      ...query,
      limit: PAGE_SIZE
    })
    const first = page.data[0]
    const last = page.data[page.data.length - 1]
    const backwards = query.ending_before !== undefined
    // Paging backwards, has_more says whether newer ones remain; forwards, older ones.
    const newer = backwards ? page.has_more : query.starting_after !== undefined
    const older = backwards ? true : page.has_more
    const base = queryOf(customer.value, from.value, to.value)
    mount(
      results,
      page.data.length === 0
        ? notice("No charges match.")
        : table(
            `Charges (${session.mode} mode)`,
            ["Charge", "Created", "Customer", "Amount", "Fee", "Total", "Status"],
            rows(page.data)
          ),
      h(
        "div",
        { class: "pager" },
        button(
          "← Newer",
          guarded(status, () => show({ ...base, ending_before: first!.id })),
          {
            disabled: !newer || first === undefined
          }
        ),
        button(
          "Older →",
          guarded(status, () => show({ ...base, starting_after: last!.id })),
          {
            disabled: !older || last === undefined
          }
        )
      )
    )
  }

  const filter = h(
    "form",
    {
      class: "card filters",
      role: "search",
      "aria-label": "Filter charges",
      onsubmit: guarded(status, () => show(queryOf(customer.value, from.value, to.value)))
    },
    field("Customer", customer),
    field("Created from", from),
    field("Created to", to),
    h("button", { type: "submit" }, "Apply")
  )
  mount(main, h("h1", {}, "Charges"), filter, status, results)
  await show({})
}
