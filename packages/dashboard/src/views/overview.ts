/**
 * The overview: the business over a chosen period in one currency, drawn with Chart.js from the
 * API's own lists (charges, refunds, disputes), computed in the page (overview.ts). Each chart
 * has its figures as a table beside it, for screen readers and for reading exact amounts.
 */
import type { Charge, Dispute, Refund } from "@levy/api"
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  type ChartTypeRegistry,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type TooltipItem
} from "chart.js"
import { field, guarded, h, mount, notice, nowrap, table } from "../dom.js"
import { money } from "../format.js"
import { currencies, type Overview, overview, period } from "../overview.js"
import type { Session } from "../session.js"

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip
)

/** How many of each list the page reads at most: the overview is for small accounts. */
const MAX_ITEMS = 5_000
const PERIODS = [7, 30, 90] as const
const COLOURS = {
  ok: "#146c43",
  bad: "#a4161a",
  accent: "#2952cc",
  warn: "#b35c00",
  blue: "#6b8fd6"
}

/** Every item of a list from `gte` on, up to MAX_ITEMS; whether it stopped there. */
const read = async <A>(list: AsyncIterable<A>) => {
  const items: Array<A> = []
  for await (const item of list) {
    if (items.length === MAX_ITEMS) return { items, cut: true }
    items.push(item)
  }
  return { items, cut: false }
}

const dayLabel = (day: number) => new Date(day * 1000).toISOString().slice(0, 10)

/** A chart and its figures: a canvas named for screen readers, and the table under it. */
const figure = (
  id: string,
  title: string,
  config: ChartConfiguration,
  headers: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string | HTMLElement>>
) => {
  const canvas = h("canvas", { role: "img", "aria-label": title, "data-chart": id })
  const element = h(
    "figure",
    { class: "card chart-card", "data-testid": `chart-${id}` },
    h("figcaption", {}, h("h2", {}, title)),
    h("div", { class: "chart" }, canvas),
    h("details", {}, h("summary", {}, "Figures"), table(title, headers, rows))
  )
  return { element, draw: () => new Chart(canvas, config) }
}

const axisMoney = (currency: string) => ({
  ticks: { callback: (value: string | number) => money(Number(value), currency) },
  beginAtZero: true
})

const tooltipMoney = (currency: string) => ({
  callbacks: {
    label: (item: TooltipItem<keyof ChartTypeRegistry>) =>
      `${item.dataset.label ?? ""}: ${money(Number(item.raw), currency)}`
  }
})

/** The share of `part` in `whole`, in whole percent (counts, not money). */
const percent = (part: number, whole: number) =>
  whole === 0 ? "0 %" : `${Math.round((part * 100) / whole)} %`

const charts = (o: Overview, currency: string) => {
  const labels = o.days.map((d) => dayLabel(d.day))
  const m = (minor: number) => nowrap(money(minor, currency))
  const common = { animation: false as const, responsive: true, maintainAspectRatio: false }
  const adjustedCount = o.adjusted.reduce((n, a) => n + a.lowered + a.refused, 0)
  return [
    figure(
      "charges",
      "Charges per day",
      {
        type: "bar",
        data: {
          labels,
          datasets: [
            {
              label: "succeeded",
              data: o.days.map((d) => d.succeeded),
              backgroundColor: COLOURS.ok
            },
            { label: "failed", data: o.days.map((d) => d.failed), backgroundColor: COLOURS.bad }
          ]
        },
        options: {
          ...common,
          scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true } }
        }
      },
      ["Day", "Succeeded", "Failed"],
      o.days.map((d) => [dayLabel(d.day), String(d.succeeded), String(d.failed)])
    ),
    figure(
      "fees",
      "Fees collected per day",
      {
        type: "line",
        data: {
          labels,
          datasets: [
            {
              label: "fees",
              data: o.days.map((d) => d.fees),
              borderColor: COLOURS.accent,
              backgroundColor: COLOURS.accent
            }
          ]
        },
        options: {
          ...common,
          scales: { y: axisMoney(currency) },
          plugins: { tooltip: tooltipMoney(currency) }
        }
      },
      ["Day", "Fees collected"],
      o.days.map((d) => [dayLabel(d.day), m(d.fees)])
    ),
    figure(
      "refunds",
      "Refunds and disputes per day",
      {
        type: "bar",
        data: {
          labels,
          datasets: [
            { label: "refunds", data: o.days.map((d) => d.refunds), backgroundColor: COLOURS.blue },
            {
              label: "disputes",
              data: o.days.map((d) => d.disputes),
              backgroundColor: COLOURS.warn
            }
          ]
        },
        options: { ...common, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } }
      },
      ["Day", "Refunds", "Refunded", "Disputes"],
      o.days.map((d) => [dayLabel(d.day), String(d.refunds), m(d.refunded), String(d.disputes)])
    ),
    figure(
      "regions",
      "Fees by region",
      {
        type: "bar",
        data: {
          labels: o.byRegion.map(([region]) => region),
          datasets: [
            {
              label: "fees",
              data: o.byRegion.map(([, fee]) => fee),
              backgroundColor: COLOURS.accent
            }
          ]
        },
        options: {
          ...common,
          indexAxis: "y",
          scales: { x: axisMoney(currency) },
          plugins: { legend: { display: false }, tooltip: tooltipMoney(currency) }
        }
      },
      ["Region", "Fees collected"],
      o.byRegion.map(([region, fee]) => [region, m(fee)])
    ),
    figure(
      "cards",
      "Fees by card type",
      {
        type: "bar",
        data: {
          labels: o.byCardType.map(([card]) => card),
          datasets: [
            { label: "fees", data: o.byCardType.map(([, fee]) => fee), backgroundColor: COLOURS.ok }
          ]
        },
        options: {
          ...common,
          scales: { y: axisMoney(currency) },
          plugins: { legend: { display: false }, tooltip: tooltipMoney(currency) }
        }
      },
      ["Card type", "Fees collected"],
      o.byCardType.map(([card, fee]) => [card, m(fee)])
    ),
    figure(
      "adjusted",
      `Fees lowered or refused: ${adjustedCount} of ${o.charges} charges (${percent(adjustedCount, o.charges)})`,
      {
        type: "bar",
        data: {
          labels: o.adjusted.map((a) => a.reasonCode),
          datasets: [
            {
              label: "lowered",
              data: o.adjusted.map((a) => a.lowered),
              backgroundColor: COLOURS.blue
            },
            {
              label: "refused (no fee)",
              data: o.adjusted.map((a) => a.refused),
              backgroundColor: COLOURS.bad
            }
          ]
        },
        options: {
          ...common,
          indexAxis: "y",
          scales: {
            x: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
            y: { stacked: true }
          }
        }
      },
      ["Reason", "Lowered", "Refused (no fee)", "Share of charges"],
      o.adjusted.map((a) => [
        a.reasonCode,
        String(a.lowered),
        String(a.refused),
        percent(a.lowered + a.refused, o.charges)
      ])
    )
  ]
}

export const overviewView = async (main: HTMLElement, session: Session): Promise<void> => {
  const status = h("div", { "aria-live": "polite" })
  const out = h("div", { "data-testid": "overview" })
  const days = h(
    "select",
    { name: "period" },
    ...PERIODS.map((n) => h("option", { value: String(n), selected: n === 30 }, `last ${n} days`))
  )
  const currency = h("select", { name: "currency" })
  let shown: Array<Chart> = []

  const load = async () => {
    const now = Math.floor(Date.now() / 1000)
    const window = period(now, Number(days.value))
    const since = { "created[gte]": window[0] ?? now, limit: 100 }
    const [charges, refunds, disputes] = await Promise.all([
      read<Charge.Charge>(session.levy.charges.list(since)),
      read<Refund.Refund>(session.levy.refunds.list(since)),
      read<Dispute.Dispute>(session.levy.disputes.list(since))
    ])
    const codes = currencies(charges.items)
    const wanted = codes.includes(currency.value) ? currency.value : (codes[0] ?? "usd")
    mount(
      currency,
      ...(codes.length === 0 ? ["usd"] : codes).map((code) =>
        h("option", { value: code, selected: code === wanted }, code.toUpperCase())
      )
    )
    const o = overview(window, wanted, {
      charges: charges.items,
      refunds: refunds.items,
      disputes: disputes.items
    })
    for (const chart of shown) chart.destroy()
    const figures = charts(o, wanted)
    mount(
      out,
      charges.cut || refunds.cut || disputes.cut
        ? h(
            "p",
            { class: "warning", role: "status" },
            `Over ${MAX_ITEMS} records in the period: the figures count the newest ${MAX_ITEMS} of each list. Choose a shorter period.`
          )
        : false,
      h(
        "p",
        { class: "summary", "data-testid": "overview-summary" },
        `${o.charges} charge${o.charges === 1 ? "" : "s"} succeeded in ${wanted.toUpperCase()}, ${money(o.fees, wanted)} of fees collected, over the last ${window.length} days (UTC).`
      ),
      o.charges === 0 && notice("No succeeded charge in this currency and period."),
      h("div", { class: "charts" }, ...figures.map((f) => f.element))
    )
    shown = figures.map((f) => f.draw())
  }

  const form = h(
    "form",
    { class: "card filters", "aria-label": "Overview period", onsubmit: guarded(status, load) },
    field("Period", days),
    field("Currency", currency),
    h("button", { type: "submit" }, "Show")
  )
  mount(main, h("h1", {}, `Overview (${session.mode} mode)`), form, status, out)
  await load()
}
