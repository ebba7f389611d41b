/**
 * Text with the NUL character (U+0000) is refused with a 400 naming the field: PostgreSQL
 * stores no NUL in `text` or `jsonb`, so such a value would otherwise reach the store and fail
 * there (a 503 and an error log) instead of being the caller's 400. Other control characters
 * are stored as they are. In JSON a NUL can only be written `\u0000` (a raw one is already
 * invalid JSON), so one scan of the text finds it; the body is parsed only to name the field.
 */
import { ApiError } from "@levy/api"

/** Whether the JSON text holds an escaped NUL (`\u0000`, not an escaped backslash before "u0000"). */
export const hasEscapedNul = (text: string): boolean => {
  for (let i = text.indexOf("\\"); i !== -1 && i < text.length; i = text.indexOf("\\", i)) {
    if (text.startsWith("u0000", i + 1)) return true
    i += 2 // the backslash and the character it escapes
  }
  return false
}

/** The path (`metadata.note`, `enabledEvents[0]`) of the first string or key holding a NUL. */
export const nulPath = (value: unknown, path = ""): string | undefined => {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}[${i}]`)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const at = path === "" ? key : `${path}.${key}`
      if (key.includes("\u0000")) return at
      const found = nulPath(item, at)
      if (found !== undefined) return found
    }
  }
  return undefined
}

const refused = (param: string | undefined) =>
  new ApiError.InvalidRequestError({
    code: "parameter_invalid",
    ...(param === undefined || param === "" ? {} : { param }),
    message: `${param === undefined || param === "" ? "The request" : param} must not contain the NUL character (\\u0000).`
  })

/** The 400 for a JSON body holding a NUL, if it does (unparsable text is left to the decoder). */
export const checkBody = (text: string): ApiError.InvalidRequestError | undefined => {
  if (!hasEscapedNul(text)) return undefined
  try {
    return refused(nulPath(JSON.parse(text)))
  } catch {
    return undefined
  }
}

/** The 400 for an already parsed value (a form body's parameters) holding a NUL, if it does. */
export const checkValue = (value: unknown): ApiError.InvalidRequestError | undefined => {
  const at = nulPath(value)
  return at === undefined ? undefined : refused(at)
}

/** The 400 for a URL whose path or query holds an encoded NUL (`%00`), if it does. */
export const checkUrl = (url: string): ApiError.InvalidRequestError | undefined => {
  if (!/%00/.test(url)) return undefined
  const parsed = new URL(url, "http://levy.invalid")
  for (const [name, value] of parsed.searchParams) {
    if (name.includes("\u0000") || value.includes("\u0000")) return refused(name.replace(/\0/g, ""))
  }
  return new ApiError.InvalidRequestError({
    code: "parameter_invalid",
    message: "The URL must not contain the NUL character (%00)."
  })
}
