/**
 * A limit on how deeply a JSON body may nest. No request of the API nests more than a few
 * levels, and a body nested thousands deep overflows the stack while its schema error is
 * formatted: it is refused (400) before any decoding, by one scan of the text.
 */

/** Deepest nesting of objects and arrays accepted. */
export const MAX_DEPTH = 64

/** Whether the JSON text nests objects/arrays more than `max` levels (brackets in strings ignored). */
export const exceeds = (text: string, max: number = MAX_DEPTH): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92)
        i++ // a backslash escapes the next character
      else if (c === 34) inString = false
    } else if (c === 34) {
      inString = true
    } else if (c === 123 || c === 91) {
      if (++depth > max) return true
    } else if (c === 125 || c === 93) {
      depth--
    }
  }
  return false
}
