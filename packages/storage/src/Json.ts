/** Values that survive `JSON.stringify` / `JSON.parse` unchanged: what records may hold. */
import { Schema } from "effect"

export type Json = null | boolean | number | string | ReadonlyArray<Json> | JsonObject

/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: Json
}

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** Whether `u` is a JSON value (finite numbers, plain objects and arrays all the way down). */
export const isJson = (u: unknown): u is Json => {
  if (u === null || typeof u === "boolean" || typeof u === "string") return true
  if (typeof u === "number") return Number.isFinite(u)
  if (Array.isArray(u)) return u.every(isJson)
  return isPlainObject(u) && Object.values(u).every(isJson)
}

/**
 * Any JSON value. A guard rather than a recursive struct: stored JSON is walked once and
 * kept as it is (nothing copied, nothing dropped).
 */
export const JsonSchema: Schema.Schema<Json> = Schema.declare(isJson, {
  identifier: "Json",
  description: "a JSON value"
})

/** A JSON object. */
export const JsonObjectSchema: Schema.Schema<JsonObject> = Schema.declare(
  (u): u is JsonObject => isPlainObject(u) && isJson(u),
  { identifier: "JsonObject", description: "a JSON object" }
)
