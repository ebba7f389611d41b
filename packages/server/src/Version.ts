/** This package's version, from its package.json (src/ and dist/ both sit one level below it). */
import { readFileSync } from "node:fs"

export const version: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    readonly version: string
  }
).version
