/**
 * New signing secrets (docs/design.md §8): `whsec_dev_…` in test mode, `whsec_prod_…` in live
 * mode, followed by 192 random bits from the system's CSPRNG in hex.
 */
import { randomBytes } from "node:crypto"

/** How long a rolled-away secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 60 * 60 * 1000

/** A fresh secret for an endpoint of this mode. */
export const make = (livemode: boolean): string =>
  `whsec_${livemode ? "prod" : "dev"}_${randomBytes(24).toString("hex")}`
