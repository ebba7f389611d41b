/** The API keys of the tenant's account and mode, newest first (docs/design.md §5). */
import type { ApiKey } from "@levy/api"
import { AccountRepository, type Page, type Tenant } from "@levy/storage"
import { Effect } from "effect"
import type * as ListRequest from "../lists/ListRequest.js"
import * as Paging from "../lists/Paging.js"
import * as KeyWire from "./KeyWire.js"

export const listKeys = (
  tenant: Tenant.Tenant,
  request: ListRequest.ListRequest
): Effect.Effect<Page.Page<ApiKey.ApiKey>, Paging.PageError, AccountRepository> =>
  Effect.flatMap(AccountRepository, (accounts) =>
    Paging.pageOf(request, (page) => accounts.listKeys(tenant, page), KeyWire.toWire)
  )
