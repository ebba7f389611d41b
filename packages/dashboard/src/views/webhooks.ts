/**
 * Webhook endpoints: the list, a create form (URL + event types), the signing secret shown
 * once with a copy button, enable/disable, roll secret, delete, and each endpoint's recent
 * deliveries with "resend".
 */

import type { WebhookDelivery, WebhookEndpoint } from "@levy/api"
import { Event } from "@levy/api"
import { badge, button, errorBox, field, guarded, h, mount, notice, table } from "../dom.js"
import { time } from "../format.js"
import type { Session } from "../session.js"

type Endpoint = WebhookEndpoint.WebhookEndpoint

/** The secret, once: a warning, the value and a copy button. */
const secretPanel = (endpoint: Endpoint, secret: string): HTMLElement => {
  const copied = h("span", { role: "status" })
  return h(
    "section",
    { class: "card secret", "aria-label": "Signing secret" },
    h("h3", {}, `Signing secret for ${endpoint.url}`),
    h(
      "p",
      { class: "warning" },
      "Copy this secret now: it is shown only once and cannot be retrieved later. Use it to verify the service-signature header of each delivery (verifyWebhook in @levy/client does it)."
    ),
    h("code", { class: "secret-value", "data-testid": "webhook-secret" }, secret),
    button("Copy secret", () => {
      navigator.clipboard
        .writeText(secret)
        .then(() => copied.replaceChildren("Copied."))
        .catch(() => copied.replaceChildren("Copy failed: select the secret and copy it by hand."))
    }),
    copied
  )
}

const deliveryRows = (
  session: Session,
  deliveries: ReadonlyArray<WebhookDelivery.WebhookDelivery>,
  status: Element
) =>
  deliveries.map((delivery) => {
    const last = delivery.attempts[delivery.attempts.length - 1]
    return [
      h("code", {}, delivery.id),
      delivery.eventType,
      badge(
        delivery.status,
        delivery.status === "succeeded" ? "ok" : delivery.status === "failed" ? "bad" : "warn"
      ),
      last?.responseStatus ?? (last?.error ? `— (${last.error})` : "—"),
      last === undefined ? "—" : `${last.durationMs} ms`,
      delivery.nextAttemptAt === null ? "—" : time(delivery.nextAttemptAt),
      button(
        "Resend",
        guarded(status, async () => {
          await session.levy.events.resend(delivery.event)
          status.replaceChildren(notice(`Event ${delivery.event} queued again.`))
        })
      )
    ]
  })

/** Loads the endpoint's recent deliveries into `box`. */
const showDeliveries = async (session: Session, endpoint: Endpoint, box: HTMLElement) => {
  const page = await session.levy.webhookEndpoints.listDeliveries(endpoint.id, { limit: 20 })
  const status = h("div", { "aria-live": "polite" })
  mount(
    box,
    page.data.length === 0
      ? notice("No deliveries yet: they appear once an event this endpoint subscribes to happens.")
      : table(
          `Recent deliveries to ${endpoint.url}`,
          ["Delivery", "Event type", "Status", "Response", "Duration", "Next retry", ""],
          deliveryRows(session, page.data, status)
        ),
    status
  )
}

const endpointRow = (
  session: Session,
  endpoint: Endpoint,
  reload: (message?: HTMLElement) => Promise<void>,
  status: Element
) => {
  const deliveries = h("div", { class: "deliveries" })
  const enabled = endpoint.status === "enabled"
  const actions = h(
    "div",
    { class: "actions" },
    button(
      enabled ? "Disable" : "Enable",
      guarded(status, async () => {
        await session.levy.webhookEndpoints.update(endpoint.id, {
          status: enabled ? "disabled" : "enabled"
        })
        await reload()
      })
    ),
    button(
      "Roll secret",
      guarded(status, async () => {
        if (!window.confirm(`Roll the signing secret of ${endpoint.url}?`)) return
        const rolled = await session.levy.webhookEndpoints.rollSecret(endpoint.id)
        await reload(secretPanel(rolled, rolled.secret ?? ""))
      })
    ),
    button(
      "Delete",
      guarded(status, async () => {
        if (!window.confirm(`Delete the endpoint ${endpoint.url}?`)) return
        await session.levy.webhookEndpoints.del(endpoint.id)
        await reload(notice(`Deleted ${endpoint.url}.`))
      }),
      { class: "danger" }
    ),
    button(
      "Deliveries",
      guarded(status, () => showDeliveries(session, endpoint, deliveries))
    )
  )
  return h(
    "article",
    { class: "card endpoint", "data-endpoint": endpoint.id },
    h("h3", {}, endpoint.url),
    h(
      "p",
      {},
      badge(endpoint.status, enabled ? "ok" : "neutral"),
      " ",
      h("code", {}, endpoint.id),
      endpoint.description ? ` — ${endpoint.description}` : ""
    ),
    h("p", {}, "Events: ", endpoint.enabledEvents.join(", ")),
    actions,
    deliveries
  )
}

const createForm = (session: Session, reload: (message?: HTMLElement) => Promise<void>) => {
  const status = h("div", { "aria-live": "polite" })
  const url = h("input", {
    type: "url",
    name: "url",
    required: true,
    placeholder: "https://example.com/webhooks"
  })
  const description = h("input", { type: "text", name: "description", maxlength: 1000 })
  const choices = ["*", ...Event.eventTypes].map((type) =>
    h(
      "label",
      { class: "check" },
      h("input", { type: "checkbox", name: "events", value: type }),
      type === "*" ? "* (every event)" : type
    )
  )
  return h(
    "form",
    {
      class: "card",
      "aria-label": "Add a webhook endpoint",
      onsubmit: guarded(status, async (event) => {
        const enabledEvents = choices
          .map((label) => label.querySelector("input")!)
          .filter((box) => box.checked)
          .map((box) => box.value as WebhookEndpoint.EnabledEvent)
        if (enabledEvents.length === 0) throw new Error("Pick at least one event type.")
        const created = await session.levy.webhookEndpoints.create({
          url: url.value.trim(),
          enabledEvents,
          ...(description.value.trim() === "" ? {} : { description: description.value.trim() })
        })
        ;(event.target as HTMLFormElement).reset()
        await reload(secretPanel(created, created.secret ?? ""))
      })
    },
    h("h2", {}, "Add an endpoint"),
    field(
      "Endpoint URL",
      url,
      session.mode === "live"
        ? "Live mode: HTTPS and a public host."
        : "Test mode allows http and loopback."
    ),
    field("Description (optional)", description),
    h("fieldset", {}, h("legend", {}, "Event types"), ...choices),
    h("button", { type: "submit" }, "Add endpoint"),
    status
  )
}

export const webhooks = async (main: HTMLElement, session: Session): Promise<void> => {
  const message = h("div", { "aria-live": "polite" })
  const list = h("div", { class: "endpoints" })
  const status = h("div", { "aria-live": "polite" })
  const reload = async (shown?: HTMLElement) => {
    const page = await session.levy.webhookEndpoints.list({ limit: 100 })
    message.replaceChildren(...(shown ? [shown] : []))
    mount(
      list,
      page.data.length === 0
        ? notice("No webhook endpoints yet.")
        : page.data.map((endpoint) => endpointRow(session, endpoint, reload, status))
    )
  }
  mount(
    main,
    h("h1", {}, "Webhook endpoints"),
    message,
    createForm(session, reload),
    h("h2", {}, "Endpoints"),
    status,
    list
  )
  await reload().catch((error: unknown) => list.replaceChildren(errorBox(error)))
}
