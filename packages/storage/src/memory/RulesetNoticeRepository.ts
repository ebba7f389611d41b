/** Notices of ruleset changes in the in-memory store. */
import { Effect, Layer } from "effect"
import type { Account } from "../AccountRepository.js"
import type { StoredCharge } from "../ChargeRepository.js"
import {
  type RulesetNotice,
  RulesetNoticeRepository,
  type RulesetNoticeRepositoryService,
  type RulesetRelease
} from "../RulesetNoticeRepository.js"
import { DuplicateRecord } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import * as MemoryStore from "./MemoryStore.js"

const NOTICES = "ruleset_notices"
const RELEASES = "ruleset_releases"
/** Tables this repository reads, kept by AccountRepository and ChargeRepository. */
const ACCOUNTS = "accounts"
const CHARGES = "charges"

const noticeKey = (
  n: { readonly accountId: string; readonly livemode: boolean },
  changeId: string
) => `${n.accountId}/${n.livemode}/${changeId}/`

/** Scans, as the memory store is for tests and demos. */
export const make = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const accounts = store.table<Account>(ACCOUNTS)
  const charges = store.table<StoredCharge>(CHARGES)
  const notices = store.table<RulesetNotice>(NOTICES)
  const releases = store.table<RulesetRelease>(RELEASES)
  const mine =
    (tenant: Tenant) => (r: { readonly accountId: string; readonly livemode: boolean }) =>
      r.accountId === tenant.accountId && r.livemode === tenant.livemode
  const service: RulesetNoticeRepositoryService = {
    accounts: (after, limit) =>
      store.read(() =>
        [...accounts.values()]
          .filter((a) => after === null || a.id > after)
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
          .slice(0, limit)
      ),
    chargedRegions: (tenant) =>
      store.read(() =>
        [
          ...new Set([...charges.values()].filter(mine(tenant)).flatMap((c) => c.region ?? []))
        ].sort()
      ),
    announced: (tenant, changeId) =>
      store.read(() => {
        const prefix = noticeKey(tenant, changeId)
        return [...notices.entries()].filter(([k]) => k.startsWith(prefix)).map(([, n]) => n.region)
      }),
    record: (list) =>
      store.write((w) => {
        const taken = list.find((n) => notices.has(noticeKey(n, n.changeId) + n.region))
        if (taken !== undefined) {
          return Effect.fail(
            new DuplicateRecord({
              entity: "ruleset_notice",
              id: `${taken.changeId}/${taken.region}`
            })
          )
        }
        for (const n of list) w.put(NOTICES, noticeKey(n, n.changeId) + n.region, n)
        return Effect.void
      }),
    releasesSeen: (version, now) =>
      store.write((w) => {
        if (!releases.has(version)) w.put(RELEASES, version, { version, firstSeen: now })
        return Effect.succeed([...releases.values()])
      })
  }
  return service
})

export const layer = Layer.effect(RulesetNoticeRepository, make)
