/**
 * @levy/rules: the ruleset as data. The research records of each jurisdiction, the version
 * of this package (every answer the engine gives names it) and earlier releases an account
 * may pin. The engine (@levy/core) reads these; this package computes nothing.
 */
import pkg from "../package.json" with { type: "json" }

export * as Research from "./Research.js"
export { files as researchFiles } from "./researchFiles.js"

/** The version of the ruleset this package carries (semver). */
export const version: string = pkg.version
