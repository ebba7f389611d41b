/**
 * The compliance explorer: every region (searchable) with its status, caps, confidence and
 * sources, and a form that checks a fee against one region.
 */

import type { Region } from "@levy/api"
import { Field } from "@levy/api"
import { badge, facts, field, guarded, h, mount, table } from "../dom.js"
import { placeName } from "../places.js"
import type { Session } from "../session.js"

const statusTone = (status: Region.Region["status"]) =>
  status === "permitted" ? "ok" : status === "prohibited" ? "bad" : "warn"

const sourceLinks = (sources: ReadonlyArray<string>) =>
  sources.flatMap((url, i) => [
    i === 0 ? "" : " ",
    /^https?:/.test(url)
      ? h(
          "a",
          { href: url, rel: "noreferrer noopener", target: "_blank", title: url },
          `[${i + 1}]`
        )
      : h("span", { title: url }, `[${i + 1}]`)
  ])

const rows = (regions: ReadonlyArray<Region.Region>) =>
  regions.map((r) => [
    h("code", {}, r.regionCode),
    h("span", { "data-testid": "region-name" }, placeName(r)),
    badge(r.status, statusTone(r.status)),
    r.allowedCardTypes.join(", ") || "none",
    `${r.maxPercentage} %`,
    r.maxFlatFee === null ? "—" : String(r.maxFlatFee),
    r.requiresDisclosure ? "yes" : "no",
    r.confidence,
    sourceLinks(r.sources)
  ])

const matches = (region: Region.Region, text: string) =>
  [region.regionCode, placeName(region), region.status, region.restrictions]
    .join(" ")
    .toLowerCase()
    .includes(text.toLowerCase())

const checkForm = (session: Session) => {
  const status = h("div", { "aria-live": "polite" })
  const region = h("input", { type: "text", name: "region", required: true, placeholder: "US-CO" })
  const percentage = h("input", {
    type: "number",
    name: "percentage",
    step: "0.0001",
    min: "0",
    value: "2.9",
    required: true
  })
  const flatFee = h("input", {
    type: "number",
    name: "flatFee",
    step: "0.01",
    min: "0",
    value: "0.30",
    required: true
  })
  const card = h(
    "select",
    { name: "cardType" },
    ...Field.CardType.literals.map((c) => h("option", { value: c }, c))
  )
  const result = h("div", { class: "result", "data-testid": "check-result" })
  return h(
    "form",
    {
      class: "card",
      "aria-label": "Check a fee",
      onsubmit: guarded(status, async () => {
        const check = await session.levy.regions.checkCompliance({
          region: region.value.trim().toUpperCase(),
          percentage: Number(percentage.value),
          flatFee: Number(flatFee.value),
          cardType: card.value as (typeof Field.CardType.literals)[number]
        })
        mount(
          result,
          facts([
            ["Verdict", check.compliant ? badge("compliant", "ok") : badge("not compliant", "bad")],
            ["Reason", check.reason ?? "—"],
            ["Reason code", check.reasonCode ?? "—"],
            ["Cap", check.maxPercentage === null ? "none" : `${check.maxPercentage} %`],
            ["Disclosure", check.disclosureText ?? "—"],
            ["Rules", check.rules.join(", ") || "—"]
          ])
        )
      })
    },
    h("h2", {}, "Check a fee"),
    h(
      "div",
      { class: "form-grid" },
      field("Region", region),
      field("Percentage (%)", percentage),
      field("Flat fee", flatFee),
      field("Card type", card)
    ),
    h("button", { type: "submit" }, "Check"),
    status,
    result
  )
}

export const compliance = async (main: HTMLElement, session: Session): Promise<void> => {
  const regions: Array<Region.Region> = []
  for await (const region of session.levy.regions.list({ limit: 100 })) regions.push(region)
  const search = h("input", {
    type: "search",
    name: "search",
    placeholder: "US-CO, Canada, prohibited…"
  })
  const out = h("div", {})
  const show = () => {
    const shown = regions.filter((r) => matches(r, search.value.trim()))
    mount(
      out,
      table(
        `${shown.length} of ${regions.length} regions`,
        [
          "Code",
          "Name",
          "Status",
          "Cards",
          "Max %",
          "Max flat",
          "Disclosure",
          "Confidence",
          "Sources"
        ],
        rows(shown)
      )
    )
  }
  search.addEventListener("input", show)
  mount(
    main,
    h("h1", {}, "Compliance explorer"),
    checkForm(session),
    h("section", { class: "card" }, h("h2", {}, "Regions"), field("Search", search), out)
  )
  show()
}
