/** fetch with a bound on every request, answers parsed; a network failure is an answer too. */

export type Outcome =
  | {
      readonly kind: "answer"
      readonly status: number
      readonly body: unknown
      readonly headers: Readonly<Record<string, string>>
    }
  | { readonly kind: "network"; readonly error: string }

export const send = async (
  base: string,
  method: string,
  path: string,
  init: {
    readonly key?: string | undefined
    readonly body?: unknown
    readonly headers?: Record<string, string>
    readonly timeoutMs?: number
  } = {}
): Promise<Outcome> => {
  const headers: Record<string, string> = { ...init.headers }
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`
  if (init.body !== undefined) headers["content-type"] = "application/json"
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: AbortSignal.timeout(init.timeoutMs ?? 10_000)
    })
    const text = await response.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
    return {
      kind: "answer",
      status: response.status,
      body,
      headers: Object.fromEntries(response.headers)
    }
  } catch (error) {
    return { kind: "network", error: String(error) }
  }
}

/** Whether `body` is the `{error:{type,code?,message}}` shape of every non-2xx answer. */
export const isErrorShape = (body: unknown): boolean => {
  if (typeof body !== "object" || body === null) return false
  const error = (body as { error?: unknown }).error
  if (typeof error !== "object" || error === null) return false
  const e = error as Record<string, unknown>
  return typeof e.type === "string" && typeof e.message === "string"
}
