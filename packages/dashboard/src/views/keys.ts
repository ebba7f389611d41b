/**
 * API keys: the account's keys in the signed-in mode (kind, name, last four characters, last
 * use; never a key itself) and a "Revoke" button for each one still valid but the key the
 * page is signed in with. A revoked key is refused from its next request (as with
 * `levy keys revoke`).
 */

import type { ApiKey } from "@levy/api"
import { badge, button, errorBox, guarded, h, mount, notice, table } from "../dom.js"
import { time } from "../format.js"
import type { Session } from "../session.js"

const rows = (
  session: Session,
  keys: ReadonlyArray<ApiKey.ApiKey>,
  reload: (message?: HTMLElement) => Promise<void>,
  status: Element
) =>
  keys.map((key) => [
    h("code", {}, key.id),
    key.kind,
    key.name ?? "—",
    h("code", {}, `…${key.last4}`),
    time(key.created),
    key.lastUsed === null ? "never" : time(key.lastUsed),
    key.revoked ? badge("revoked", "bad") : badge("active", "ok"),
    key.revoked
      ? ""
      : button(
          "Revoke",
          guarded(status, async () => {
            if (!window.confirm(`Revoke ${key.kind} key ${key.name ?? key.id} (…${key.last4})?`))
              return
            await session.levy.keys.revoke(key.id)
            await reload(notice(`Revoked ${key.id}: it is refused from its next request.`))
          }),
          { class: "danger", "data-key": key.id }
        )
  ])

export const keys = async (main: HTMLElement, session: Session): Promise<void> => {
  const message = h("div", { "aria-live": "polite" })
  const list = h("div", {})
  const status = h("div", { "aria-live": "polite" })
  const reload = async (shown?: HTMLElement) => {
    const page = await session.levy.keys.list({ limit: 100 })
    message.replaceChildren(...(shown ? [shown] : []))
    mount(
      list,
      page.data.length === 0
        ? notice("No keys.")
        : table(
            `API keys (${session.mode} mode)`,
            ["Key", "Kind", "Name", "Ends", "Created", "Last used", "Status", ""],
            rows(session, page.data, reload, status)
          )
    )
  }
  mount(
    main,
    h("h1", {}, "API keys"),
    h(
      "p",
      {},
      "A key cannot revoke itself: to revoke the key you signed in with, sign in with another one or use levy keys revoke."
    ),
    message,
    status,
    list
  )
  await reload().catch((error: unknown) => list.replaceChildren(errorBox(error)))
}
