/**
 * Sign-in: a secret key, checked by reading the fee configuration (any secret key may). The
 * API's refusal (wrong key, publishable key) is shown as its message; the key is stored only
 * once the server accepted it.
 */
import { errorBox, field, h } from "../dom.js"
import * as Session from "../session.js"

export const signIn = (onSignedIn: () => void, wantMode?: Session.Mode): HTMLElement => {
  const input = h("input", {
    type: "password",
    name: "key",
    autocomplete: "off",
    required: true,
    placeholder: wantMode === "live" ? "sk_prod_…" : "sk_dev_…",
    spellcheck: "false"
  })
  const status = h("div", { "aria-live": "polite" })
  const submit = h("button", { type: "submit" }, "Sign in")
  const form = h(
    "form",
    {
      class: "card sign-in",
      onsubmit: (event) => {
        event.preventDefault()
        const key = input.value.trim()
        submit.disabled = true
        status.replaceChildren()
        Session.clientFor(key)
          .feeConfigs.retrieve()
          .then(() => {
            if (Session.modeOf(key) === undefined)
              throw new Error("Sign in with a secret key: sk_dev_… (test) or sk_prod_… (live).")
            Session.save(key)
            onSignedIn()
          })
          .catch((error: unknown) => status.replaceChildren(errorBox(error)))
          .finally(() => {
            submit.disabled = false
          })
      }
    },
    h("h1", {}, "Levy dashboard"),
    h(
      "p",
      {},
      wantMode === undefined
        ? "Sign in with a secret key: sk_dev_… for test mode, sk_prod_… for live mode."
        : `Sign in with your ${wantMode} secret key (${wantMode === "live" ? "sk_prod_…" : "sk_dev_…"}).`
    ),
    field(
      "Secret key",
      input,
      "Kept in this tab only (session storage); sent only to this server."
    ),
    submit,
    status
  )
  return h("main", { id: "main" }, form)
}
