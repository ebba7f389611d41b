/**
 * A tiny element builder: text always goes in as text nodes (never HTML), so nothing the API
 * returns can inject markup, and the strict Content-Security-Policy needs no inline script.
 */
export type Child = Node | string | number | null | undefined | false
export type Children = ReadonlyArray<Child | ReadonlyArray<Child>>

type Handler = (event: Event) => void
export type Attrs = Record<string, string | number | boolean | null | undefined | Handler>

const append = (parent: Node, children: Children) => {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue
    parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)))
  }
}

/** `h("button", { type: "button", onclick: go }, "Go")`; `on…` attributes become listeners. */
export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Children
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === "function") element.addEventListener(name.slice(2), value)
    else if (value === true) element.setAttribute(name, "")
    else if (value !== false && value !== null && value !== undefined)
      element.setAttribute(name, String(value))
  }
  append(element, children)
  return element
}

/** Replaces `parent`'s content. */
export const mount = (parent: Element, ...children: Children): void => {
  parent.replaceChildren()
  append(parent, children)
}

/** An API failure as its message (the client's errors carry the server's), in an alert. */
export const errorBox = (error: unknown): HTMLElement =>
  h("p", { class: "error", role: "alert" }, messageOf(error))

export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : `Unexpected failure: ${String(error)}`

/** A short notice that screen readers announce. */
export const notice = (text: string): HTMLElement =>
  h("p", { class: "notice", role: "status" }, text)

/** A label wrapping its control, so every input has an accessible name. */
export const field = (label: string, control: HTMLElement, hint?: string): HTMLElement =>
  h("label", { class: "field" }, h("span", {}, label), control, hint && h("small", {}, hint))

/** A table with a header row; `rows` are arrays of cells. */
export const table = (
  caption: string,
  headers: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Child | ReadonlyArray<Child>>>
): HTMLElement =>
  h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      {},
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, ...headers.map((text) => h("th", { scope: "col" }, text)))),
      h(
        "tbody",
        {},
        ...rows.map((cells) =>
          h(
            "tr",
            {},
            ...cells.map((cell, i) =>
              h("td", { "data-label": headers[i] ?? "" }, ...(Array.isArray(cell) ? cell : [cell]))
            )
          )
        )
      )
    )
  )

/** A definition list of label → value. */
export const facts = (pairs: ReadonlyArray<readonly [string, Child | ReadonlyArray<Child>]>) =>
  h(
    "dl",
    { class: "facts" },
    ...pairs.flatMap(([term, value]) => [
      h("dt", {}, term),
      h("dd", {}, ...(Array.isArray(value) ? value : [value]))
    ])
  )

/** A button (type=button, so it never submits a form by accident). */
export const button = (label: string, onclick: Handler, attrs: Attrs = {}) =>
  h("button", { type: "button", ...attrs, onclick }, label)

/**
 * Runs `action` with the button disabled, then shows its failure (if any) in `status`:
 * errors are never swallowed into a blank page.
 */
export const guarded = (
  status: Element,
  action: (event: Event) => Promise<void>
): ((event: Event) => void) => {
  return (event) => {
    event.preventDefault()
    const target = event.currentTarget
    const control =
      target instanceof HTMLButtonElement
        ? target
        : target instanceof HTMLFormElement
          ? target.querySelector<HTMLButtonElement>("button[type=submit]")
          : null
    if (control) control.disabled = true
    status.replaceChildren()
    action(event)
      .catch((error: unknown) => status.replaceChildren(errorBox(error)))
      .finally(() => {
        if (control) control.disabled = false
      })
  }
}

/** Text kept on one line (an amount and its currency never wrap apart). */
export const nowrap = (text: string): HTMLElement => h("span", { class: "nowrap" }, text)

/** Key-value pairs (metadata) as a list of `key: value`; "none" when empty. */
export const pairs = (record: Readonly<Record<string, string>>, testId?: string): HTMLElement => {
  const entries = Object.entries(record)
  return entries.length === 0
    ? h("span", { "data-testid": testId }, "none")
    : h(
        "ul",
        { class: "pairs", "data-testid": testId },
        ...entries.map(([key, value]) => h("li", {}, h("code", {}, key), ": ", value))
      )
}

/** A badge: `tone` picks the colour (ok, bad, warn, neutral). */
export const badge = (text: string, tone: "ok" | "bad" | "warn" | "neutral") =>
  h("span", { class: `badge ${tone}` }, text)
