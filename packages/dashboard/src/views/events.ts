/** The events feed: newest first, filtered by type, cursor-paged, each with its JSON. */
import { Event } from "@levy/api"
import { button, field, guarded, h, mount, notice } from "../dom.js"
import { time } from "../format.js"
import type { Session } from "../session.js"

const PAGE_SIZE = 25

export const events = async (main: HTMLElement, session: Session): Promise<void> => {
  const status = h("div", { "aria-live": "polite" })
  const type = h(
    "select",
    { name: "type" },
    h("option", { value: "" }, "all types"),
    ...Event.eventTypes.map((t) => h("option", { value: t }, t))
  )
  const out = h("div", {})
  const show = async (after?: string) => {
    const page = await session.levy.events.list({
      limit: PAGE_SIZE,
      ...(type.value === "" ? {} : { type: type.value as Event.EventType }),
      ...(after === undefined ? {} : { starting_after: after })
    })
    const last = page.data[page.data.length - 1]
    mount(
      out,
      page.data.length === 0
        ? notice("No events.")
        : h(
            "ul",
            { class: "events" },
            ...page.data.map((event) =>
              h(
                "li",
                {},
                h(
                  "details",
                  {},
                  h(
                    "summary",
                    {},
                    h("strong", {}, event.type),
                    ` · ${time(event.created)} · `,
                    h("code", {}, event.id)
                  ),
                  h("pre", {}, JSON.stringify(event, null, 2))
                )
              )
            )
          ),
      h(
        "div",
        { class: "pager" },
        after === undefined
          ? false
          : button(
              "← Newest",
              guarded(status, () => show())
            ),
        page.has_more && last !== undefined
          ? button(
              "Older →",
              guarded(status, () => show(last.id))
            )
          : false
      )
    )
  }
  const form = h(
    "form",
    {
      class: "card inline",
      role: "search",
      "aria-label": "Filter events",
      onsubmit: guarded(status, () => show())
    },
    field("Type", type),
    h("button", { type: "submit" }, "Filter")
  )
  mount(main, h("h1", {}, "Events"), form, status, out)
  await show()
}
