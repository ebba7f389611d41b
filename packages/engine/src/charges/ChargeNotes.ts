/**
 * A charge's notes (its description and metadata) after `POST /v1/charges/{id}`, with Stripe's
 * semantics (docs/design.md §4): a field left out stays as it is; `description` "" or null
 * removes it; `metadata`'s keys are merged into the charge's, a key set to "" removed. The
 * result must keep the metadata rules (checked by the API's own `Metadata` schema, so a rule
 * added there applies to merged metadata too): merging may pass the key limit.
 */
import { type ChargeUpdate, Metadata } from "@levy/api"
import type { ChargeNotes } from "@levy/storage"
import { Either, type ParseResult, Schema } from "effect"

const decodeMetadata = Schema.decodeUnknownEither(
  Schema.Struct({ metadata: Metadata.MetadataCreate })
)

/** The notes after `update`; the metadata schema's refusal of the merged metadata otherwise. */
export const after = (
  current: ChargeNotes,
  update: ChargeUpdate.ChargeUpdate
): Either.Either<ChargeNotes, ParseResult.ParseError> => {
  const description =
    update.description === undefined
      ? current.description
      : update.description === null || update.description === ""
        ? null
        : update.description
  if (update.metadata === undefined)
    return Either.right({ description, metadata: current.metadata })
  const merged: Record<string, string> = { ...current.metadata }
  for (const [key, value] of Object.entries(update.metadata)) {
    if (value === "") delete merged[key]
    else merged[key] = value
  }
  return Either.map(decodeMetadata({ metadata: merged }), ({ metadata }) => ({
    description,
    metadata
  }))
}
