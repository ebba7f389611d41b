/** The refund named is not the tenant's (`inOtherMode`: it exists in the tenant's other mode). */
import type { Tenant } from "@levy/storage"
import { Data } from "effect"

export class RefundNotFound extends Data.TaggedError("RefundNotFound")<{
  readonly tenant: Tenant.Tenant
  readonly id: string
  readonly inOtherMode: boolean
}> {}
