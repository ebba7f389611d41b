/** Values that survive `JSON.stringify` / `JSON.parse` unchanged: what records may hold. */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | JsonObject

/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: Json
}
