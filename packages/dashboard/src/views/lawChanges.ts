/**
 * Changes of the law announced to the account (`ruleset.changed` events, docs/webhooks.md), on
 * the fee page: the latest few, each with the day it applies from, and per region the law before
 * and after and the fee the account's configuration collects before and after at a few amounts.
 * None announced: nothing shown.
 */
import type { RulesetChange } from "@levy/api"
import { type Child, errorBox, h, table } from "../dom.js"
import { money } from "../format.js"
import type { Session } from "../session.js"

/** How many announcements the fee page shows. */
const SHOWN = 3

const law = (t: RulesetChange.RegionTerms): string =>
  t.verdict === "capped" && t.maxPercentage !== null
    ? `capped at ${t.maxPercentage} %`
    : t.verdict === "allowed"
      ? "allowed"
      : t.verdict === "prohibited"
        ? "prohibited"
        : "uncertain"

const fee = (minor: number | null, currency: string) =>
  minor === null ? "refused" : money(minor, currency)

/** One row per region and card type: the law, then each amount's fee before → after. */
const rowsOf = (
  region: RulesetChange.RegionChange
): ReadonlyArray<ReadonlyArray<Child | ReadonlyArray<Child>>> =>
  (["credit", "debit"] as const).map((cardType) => [
    region.region,
    `${law(region.before)} → ${law(region.after)}`,
    cardType,
    region.fees
      .filter((f) => f.cardType === cardType)
      .map((f) =>
        h(
          "span",
          { class: "fee-change" },
          `${money(f.amount, region.currency)}: ${fee(f.before, region.currency)} → ${fee(f.after, region.currency)}`
        )
      )
  ])

const headline = (change: RulesetChange.RulesetChange): string =>
  change.reason === "release"
    ? `Ruleset ${change.rulesetVersion.before} → ${change.rulesetVersion.after}, in force since ${change.effectiveDate}: your fee changes in ${change.regions.map((r) => r.region).join(", ")}.`
    : `From ${change.effectiveDate}, the law changes your fee in ${change.regions.map((r) => r.region).join(", ")}.`

const changeView = (change: RulesetChange.RulesetChange): HTMLElement =>
  h(
    "article",
    { class: "law-change", "data-effective": change.effectiveDate },
    h("p", { class: "warning", role: "status" }, headline(change)),
    table(
      "Your fee on a consumer's card, online: before → after",
      ["Region", "Law", "Card", "Fee on each amount"],
      change.regions.flatMap(rowsOf)
    )
  )

/** The section, or false when nothing was announced; a failure to list shows as its message. */
export const lawChanges = async (session: Session): Promise<HTMLElement | false> => {
  let page: Awaited<ReturnType<Session["levy"]["events"]["list"]>>
  try {
    page = await session.levy.events.list({ type: "ruleset.changed", limit: SHOWN })
  } catch (error) {
    // The fee page stays usable when the events cannot be listed.
    return h("section", { class: "card" }, errorBox(error))
  }
  if (page.data.length === 0) return false
  return h(
    "section",
    { class: "card law-changes", "aria-labelledby": "law-h", "data-testid": "law-changes" },
    h("h2", { id: "law-h" }, "Changes in the law"),
    h(
      "p",
      {},
      "Levy tells you (and your webhooks, as ruleset.changed) before a change of the law alters the fee you collect in a region you charge in or list. Charges follow the law in force on their day, so nothing has to change on your side; this is what your fee becomes."
    ),
    ...page.data.map((event) => changeView(event.data.object as RulesetChange.RulesetChange))
  )
}
