/** Refunds: every refund of the mode, newest first, with its charge, amounts, status and metadata. */
import type { Refund } from "@levy/api"
import { badge, h, mount, nowrap, pairs } from "../dom.js"
import { money, time } from "../format.js"
import type { Session } from "../session.js"
import { showPage } from "./pager.js"

const PAGE_SIZE = 25

const statusBadge = (refund: Refund.Refund) =>
  badge(
    refund.status,
    refund.status === "succeeded" ? "ok" : refund.status === "failed" ? "bad" : "warn"
  )

export const refunds = async (main: HTMLElement, session: Session): Promise<void> => {
  const status = h("div", { "aria-live": "polite" })
  const out = h("div", { "data-testid": "refunds" })
  mount(main, h("h1", {}, "Refunds"), status, out)
  await showPage<Refund.Refund>(
    out,
    status,
    {
      caption: `Refunds (${session.mode} mode), newest first`,
      headers: ["Refund", "Created", "Charge", "Amount", "Fee", "Total", "Status", "Metadata"],
      row: (r) => [
        h("code", {}, r.id),
        time(r.created),
        h("a", { href: `#/charges/${encodeURIComponent(r.charge)}` }, r.charge),
        nowrap(money(r.amount, r.currency)),
        nowrap(money(r.convenienceFee, r.currency)),
        nowrap(money(r.totalAmount, r.currency)),
        [statusBadge(r), r.failureMessage === undefined ? null : ` ${r.failureMessage}`],
        pairs(r.metadata)
      ],
      fetch: (cursor, limit) => session.levy.refunds.list({ ...cursor, limit }),
      empty: "No refunds yet."
    },
    PAGE_SIZE
  )
}
