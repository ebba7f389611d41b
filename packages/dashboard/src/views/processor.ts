/**
 * Payment processor: the processor connected for the signed-in mode (credentials masked, as
 * the API shows them), the webhook URL to paste into the processor's dashboard, a form to
 * connect Stripe or Adyen with the credentials each needs (checked with the processor before
 * they are saved), and Disconnect. In live mode a connect or disconnect is held until another
 * secret key approves it (docs/design.md §4): the held change is shown with Approve (which
 * another key must press) and Cancel.
 */

import { ProcessorConfig } from "@levy/api"
import { NotFoundError } from "@levy/client"
import { button, errorBox, facts, field, guarded, h, mount, notice } from "../dom.js"
import { time } from "../format.js"
import type { Session } from "../session.js"

type Config = ProcessorConfig.ProcessorConfig
type Change = ProcessorConfig.ProcessorConfigChange
type Name = ProcessorConfig.ProcessorName

const TITLES: Readonly<Record<Name, string>> = { stripe: "Stripe", adyen: "Adyen" }

/** `request`'s answer, or undefined for a 404. */
const unlessMissing = <A>(request: Promise<A>): Promise<A | undefined> =>
  request.catch((error: unknown) =>
    error instanceof NotFoundError ? undefined : Promise.reject(error)
  )

/** The configuration in force, or undefined when none is connected in this mode. */
const current = (session: Session): Promise<Config | undefined> =>
  unlessMissing(session.levy.processorConfig.retrieve())

/** The change held for approval, or undefined. */
const heldChange = (session: Session): Promise<Change | undefined> =>
  unlessMissing(session.levy.processorConfig.retrievePending())

/** The URL to register with the processor: this server's origin and the configuration's path. */
const webhookUrlOf = (path: string) => `${window.location.origin}${path}`

const copyButton = (label: string, text: string) => {
  const copied = h("span", { role: "status" })
  return [
    button(label, () => {
      navigator.clipboard
        .writeText(text)
        .then(() => copied.replaceChildren("Copied."))
        .catch(() => copied.replaceChildren("Copy failed: select the URL and copy it by hand."))
    }),
    copied
  ]
}

/** A warning while the secret that signs the processor's notifications is not saved yet. */
const missingSignature = (config: Config) => {
  const signing = ProcessorConfig.CREDENTIAL_FIELDS[config.processor].find(
    (f) => f.signsNotifications
  )
  return signing === undefined || signing.name in config.credentials
    ? []
    : [
        h(
          "p",
          { class: "warning", "data-testid": "missing-signing-secret" },
          `No ${signing.label.toLowerCase()} yet: ${TITLES[config.processor]}'s notifications are refused. Register the webhook URL below with ${TITLES[config.processor]}, then connect again with its ${signing.label.toLowerCase()}.`
        )
      ]
}

const configured = (
  session: Session,
  config: Config,
  reload: (message?: HTMLElement) => Promise<void>,
  status: Element
) => {
  const url = webhookUrlOf(config.webhookUrl)
  return h(
    "section",
    { class: "card", "aria-label": "Connected processor", "data-testid": "processor-config" },
    h("h2", {}, `${TITLES[config.processor]} is connected (${session.mode} mode)`),
    facts([
      ["Processor", TITLES[config.processor]],
      [
        "Credentials",
        Object.entries(config.credentials).map(([name, masked]) =>
          h("div", {}, `${name}: `, h("code", { "data-credential": name }, masked))
        )
      ],
      ["Surcharge field", config.surcharge ? "on" : "off"],
      ["Connected", time(config.created)],
      ["Updated", time(config.updated)]
    ]),
    ...missingSignature(config),
    h("h3", {}, "Webhook URL"),
    h(
      "p",
      {},
      `Register this URL with ${TITLES[config.processor]} so Levy learns of disputes, refunds made in ${TITLES[config.processor]}'s dashboard and late payment outcomes:`
    ),
    h("code", { class: "secret-value", "data-testid": "processor-webhook-url" }, url),
    h("div", { class: "actions" }, ...copyButton("Copy webhook URL", url)),
    h(
      "div",
      { class: "actions" },
      button(
        "Disconnect",
        guarded(status, async () => {
          const consequence =
            session.mode === "live"
              ? "Live charges will be refused until a processor is connected again."
              : "Test charges will use the built-in simulator."
          if (!window.confirm(`Disconnect ${TITLES[config.processor]}? ${consequence}`)) return
          const answer = await session.levy.processorConfig.del()
          await reload(
            notice(
              answer.deleted
                ? `Disconnected ${TITLES[config.processor]}. ${consequence}`
                : `Disconnecting ${TITLES[config.processor]} waits for another secret key to approve it.`
            )
          )
        }),
        { class: "danger" }
      )
    )
  )
}

/** The change held for approval: what it would do, with Approve and Cancel. */
const heldPanel = (
  session: Session,
  change: Change,
  reload: (message?: HTMLElement) => Promise<void>
) => {
  const status = h("div", { "aria-live": "polite" })
  const what =
    change.action === "save"
      ? `Connect ${TITLES[change.processor]} with these credentials`
      : `Disconnect ${TITLES[change.processor]}`
  return h(
    "section",
    { class: "card pending", "aria-label": "Held change", "data-testid": "processor-held" },
    h("h2", {}, "Change waiting for approval"),
    h(
      "p",
      {},
      `${what}. Requested ${time(change.requestedAt)} (${change.id}). It decides where live payments go, so it waits until another secret key of this account approves it (sign in with that key, or run `,
      h("code", {}, `levy processors approve ${change.id}`),
      "); any key may cancel it."
    ),
    ...(change.stale
      ? [
          h(
            "p",
            { class: "warning", "data-testid": "processor-held-stale" },
            "The configuration changed after this was requested, so it can no longer be approved: cancel it and request it again."
          )
        ]
      : []),
    facts([
      ["Action", change.action === "save" ? "Connect" : "Disconnect"],
      ["Processor", TITLES[change.processor]],
      ...(change.credentials === undefined
        ? []
        : ([
            [
              "Credentials",
              Object.entries(change.credentials).map(([name, masked]) =>
                h("div", {}, `${name}: `, h("code", { "data-held-credential": name }, masked))
              )
            ]
          ] as const)),
      ...(change.action === "save"
        ? ([["Surcharge field", change.surcharge ? "on" : "off"]] as const)
        : [])
    ]),
    h(
      "div",
      { class: "actions" },
      button(
        "Approve",
        guarded(status, async () => {
          await session.levy.processorConfig.approvePending(change.id)
          await reload(
            notice(
              change.action === "save"
                ? `Approved: ${TITLES[change.processor]} is connected in ${session.mode} mode.`
                : `Approved: ${TITLES[change.processor]} is disconnected.`
            )
          )
        })
      ),
      button(
        "Cancel change",
        guarded(status, async () => {
          await session.levy.processorConfig.cancelPending()
          await reload(notice("The held change was cancelled; nothing changed."))
        }),
        { class: "danger" }
      )
    ),
    status
  )
}

/** The credential inputs of one processor. */
const credentialInputs = (name: Name) =>
  ProcessorConfig.CREDENTIAL_FIELDS[name].map((f) => {
    const input = h("input", {
      type: f.secret ? "password" : "text",
      name: f.name,
      required: f.required,
      autocomplete: "off",
      spellcheck: false
    })
    return {
      name: f.name,
      input,
      label: field(`${f.label}${f.required ? "" : " (optional)"}`, input, f.where)
    }
  })

const connectForm = (
  session: Session,
  replacing: Config | undefined,
  reload: (message?: HTMLElement) => Promise<void>
) => {
  const status = h("div", { "aria-live": "polite" })
  const fieldsBox = h("div", { class: "form-grid" })
  const surcharge = h("input", { type: "checkbox", name: "surcharge" })
  const processor = h(
    "select",
    { name: "processor" },
    ...ProcessorConfig.PROCESSORS.map((name) =>
      h("option", { value: name, selected: name === replacing?.processor }, TITLES[name])
    )
  )
  let inputs = credentialInputs(processor.value as Name)
  const showFields = () => {
    inputs = credentialInputs(processor.value as Name)
    mount(
      fieldsBox,
      inputs.map((i) => i.label)
    )
  }
  processor.addEventListener("change", showFields)
  showFields()
  return h(
    "form",
    {
      class: "card",
      "aria-label": "Connect a payment processor",
      onsubmit: guarded(status, async (event) => {
        const credentials = Object.fromEntries(
          inputs.map((i) => [i.name, i.input.value.trim()]).filter(([, value]) => value !== "")
        )
        const saved = await session.levy.processorConfig.create({
          processor: processor.value as Name,
          credentials,
          ...(surcharge.checked ? { surcharge: true } : {})
        })
        ;(event.target as HTMLFormElement).reset()
        await reload(
          notice(
            saved.applied === false
              ? `${TITLES[saved.processor]} accepted the credentials. In live mode the change waits for another secret key to approve it.`
              : `${TITLES[saved.processor]} accepted the credentials: connected in ${session.mode} mode.`
          )
        )
      })
    },
    h("h2", {}, replacing === undefined ? "Connect a processor" : "Replace the processor"),
    h(
      "p",
      {},
      "Levy checks the credentials with the processor (one read-only call) before saving them. They are stored encrypted and never shown again in full."
    ),
    field("Processor", processor),
    fieldsBox,
    h(
      "label",
      { class: "check" },
      surcharge,
      "Also send the fee in the processor's surcharge field (Adyen, where Adyen enabled it)"
    ),
    h("button", { type: "submit" }, "Connect"),
    status
  )
}

export const processor = async (main: HTMLElement, session: Session): Promise<void> => {
  const message = h("div", { "aria-live": "polite" })
  const body = h("div", {})
  const status = h("div", { "aria-live": "polite" })
  const reload = async (shown?: HTMLElement) => {
    const [config, held] = await Promise.all([current(session), heldChange(session)])
    message.replaceChildren(...(shown ? [shown] : []))
    mount(
      body,
      held === undefined ? false : heldPanel(session, held, reload),
      config === undefined
        ? notice(
            `${
              session.mode === "test"
                ? "No processor is connected in test mode: test charges use the built-in simulator."
                : held === undefined
                  ? "No processor is connected in live mode: live charges are refused until you connect one."
                  : "No processor is connected in live mode: live charges are refused until the change above is approved."
            } Once connected, this page shows the webhook URL to register with the processor.`
          )
        : configured(session, config, reload, status),
      status,
      connectForm(session, config, reload)
    )
  }
  mount(main, h("h1", {}, "Payment processor"), message, body)
  await reload().catch((error: unknown) => body.replaceChildren(errorBox(error)))
}
