/**
 * The dashboard's entry: the shell (mode banner, navigation) and a hash router over the views.
 * Signed out, it shows the sign-in form; every view renders into <main> and shows API failures
 * as their message.
 */
import { button, errorBox, h, mount } from "./dom.js"
import * as Session from "./session.js"
import { signIn } from "./views/signIn.js"
import { views } from "./views/views.js"

const app = document.getElementById("app")!

const other = (mode: Session.Mode): Session.Mode => (mode === "test" ? "live" : "test")

const banner = (session: Session.Session) =>
  h(
    "header",
    { class: `banner ${session.mode}` },
    h("strong", { class: "brand" }, "Levy"),
    h(
      "span",
      { class: "mode", "data-testid": "mode" },
      session.mode === "live" ? "LIVE MODE — real money" : "TEST MODE — simulated payments"
    ),
    h(
      "span",
      { class: "banner-actions" },
      button(`Switch to ${other(session.mode)} mode`, () => {
        Session.clear()
        render(other(session.mode))
      }),
      button("Sign out", () => {
        Session.clear()
        render()
      })
    )
  )

const nav = (current: string) =>
  h(
    "nav",
    { "aria-label": "Sections" },
    h(
      "ul",
      {},
      ...views.map((view) =>
        h(
          "li",
          {},
          h(
            "a",
            { href: `#/${view.path}`, "aria-current": view.path === current ? "page" : false },
            view.title
          )
        )
      )
    )
  )

/** `#/charges/ch_1` → ["charges", "ch_1"]. */
const route = (): ReadonlyArray<string> =>
  window.location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent)

const render = (wantMode?: Session.Mode) => {
  const session = Session.load()
  if (session === undefined) {
    mount(
      app,
      signIn(() => render(), wantMode)
    )
    return
  }
  const [section = "charges", ...rest] = route()
  const view = views.find((v) => v.path === section) ?? views[0]!
  const main = h("main", { id: "main", tabindex: "-1" })
  mount(app, banner(session), nav(view.path), main)
  document.title = `${view.title} · Levy dashboard (${session.mode})`
  view.render(main, session, rest).catch((error: unknown) => mount(main, errorBox(error)))
}

// A new view takes the focus (as a page load would), so keyboard and screen-reader users land on it.
window.addEventListener("hashchange", () => {
  render()
  document.getElementById("main")?.focus()
})
render()
