/** The dispute named is not the tenant's (`inOtherMode`: it exists in the tenant's other mode). */
import type { Tenant } from "@levy/storage"
import { Data } from "effect"

export class DisputeNotFound extends Data.TaggedError("DisputeNotFound")<{
  readonly tenant: Tenant.Tenant
  readonly id: string
  readonly inOtherMode: boolean
}> {}
