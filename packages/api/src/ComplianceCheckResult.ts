/** The answer of `POST /v1/regions/check-compliance`: the verdict and the region it echoes. */
import type { Compliance as CoreCompliance } from "@levy/core"
import { Schema } from "effect"
import { Compliance, fromVerdict } from "./Compliance.js"

/** The check result. */
export const ComplianceCheckResult = Schema.Struct({
  ...Compliance.fields,
  region: Schema.String.annotations({ description: "The region of the request." })
}).annotations({ identifier: "ComplianceCheckResult" })
export type ComplianceCheckResult = typeof ComplianceCheckResult.Type

/** The engine's verdict for `region` as the wire shows it. */
export const fromEngine = (
  region: string,
  verdict: CoreCompliance.ComplianceVerdict
): ComplianceCheckResult => ({ ...fromVerdict(verdict), region })
