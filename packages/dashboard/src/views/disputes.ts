/** Disputes: every dispute of the mode, newest first, filtered by status, with its charge. */
import { Dispute } from "@levy/api"
import { field, guarded, h, mount, nowrap } from "../dom.js"
import { money, time } from "../format.js"
import type { Session } from "../session.js"
import { disputeBadge } from "./chargeDetail.js"
import { showPage } from "./pager.js"

const PAGE_SIZE = 25

export const disputes = async (main: HTMLElement, session: Session): Promise<void> => {
  const status = h("div", { "aria-live": "polite" })
  const out = h("div", { "data-testid": "disputes-list" })
  const which = h(
    "select",
    { name: "status" },
    h("option", { value: "" }, "any"),
    ...Dispute.DisputeStatus.literals.map((s) => h("option", { value: s }, s.replace("_", " ")))
  )
  const show = () => {
    const wanted = which.value === "" ? {} : { status: which.value as Dispute.DisputeStatus }
    return showPage<Dispute.Dispute>(
      out,
      status,
      {
        caption: `Disputes (${session.mode} mode), newest first`,
        headers: ["Dispute", "Opened", "Charge", "Amount", "Reason", "Status"],
        row: (d) => [
          h("code", {}, d.id),
          time(d.created),
          h("a", { href: `#/charges/${encodeURIComponent(d.charge)}` }, d.charge),
          nowrap(money(d.amount, d.currency)),
          d.reason,
          disputeBadge(d.status)
        ],
        fetch: (cursor, limit) => session.levy.disputes.list({ ...wanted, ...cursor, limit }),
        empty: "No disputes match."
      },
      PAGE_SIZE
    )
  }
  const filter = h(
    "form",
    {
      class: "card filters",
      role: "search",
      "aria-label": "Filter disputes",
      onsubmit: guarded(status, show)
    },
    field("Status", which),
    h("button", { type: "submit" }, "Apply")
  )
  mount(main, h("h1", {}, "Disputes"), filter, status, out)
  await show()
}
