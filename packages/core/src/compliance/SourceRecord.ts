/**
 * One record of the cited research dataset (`data/regions.source.json`, a verbatim copy
 * of packages/core/data/regions.source.json), exactly as researched.
 */
export interface SourceRecord {
  readonly regionCode: string
  readonly country: string
  readonly state: string | null
  readonly status: string
  readonly allowedCardTypes: ReadonlyArray<string>
  readonly maxPercentage: number | null
  readonly networkMaxPercentage: number | null
  readonly costOfAcceptanceCap: boolean
  readonly maxFlatFee: number | null
  readonly requiresDisclosure: boolean
  readonly restrictions: string
  readonly disclosureText: string | null
  readonly effectiveFrom: string | null
  readonly currentAsOf: string | null
  readonly sources: ReadonlyArray<string>
  readonly confidence: string
}

/** The dataset file: metadata and records. */
export interface SourceDataset {
  readonly _meta: { readonly generated: string; readonly warning: string }
  readonly regions: ReadonlyArray<SourceRecord>
}
