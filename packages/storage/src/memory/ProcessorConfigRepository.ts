/** Processor configurations and their held changes in the in-memory store. */
import { Effect, Layer, Option } from "effect"
import {
  type AppliedProcessorChange,
  changeOf,
  newRevision,
  notFound,
  type OpenedProcessorChange,
  openChange,
  openCredentials,
  PENDING_CHANGE,
  type ProcessorApproval,
  type ProcessorChange,
  type ProcessorConfig,
  ProcessorConfigRepository,
  type ProcessorConfigRepositoryService,
  type ProcessorConfigSave,
  revisionConflict,
  type StoredProcessorChange,
  seal,
  sealChange
} from "../ProcessorConfigRepository.js"
import { SecretBox } from "../SecretBox.js"
import {
  DuplicateRecord,
  RecordNotFound,
  type RevisionConflict,
  type StorageError
} from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import * as MemoryStore from "./MemoryStore.js"

const TABLE = "processor_configs"
const CHANGES = "pending_processor_config_changes"

interface Stored extends ProcessorConfig {
  readonly sealed: string
}

export const make = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const box = yield* SecretBox
  const configs = store.table<Stored>(TABLE)
  const changes = store.table<StoredProcessorChange>(CHANGES)
  const key = (tenant: Tenant) => `${tenant.accountId}/${tenant.livemode}`
  const visible = ({ sealed: _, ...config }: Stored): ProcessorConfig => config
  const withoutCredentials = ({
    credentialsCiphertext: _,
    ...change
  }: StoredProcessorChange): ProcessorChange => change
  const opened = (stored: StoredProcessorChange) =>
    openChange(box, withoutCredentials(stored), stored.credentialsCiphertext)
  const find = (tenant: Tenant) => store.read(() => Option.fromNullable(configs.get(key(tenant))))
  /** Writes `save` as the configuration; the caller holds the store's lock. */
  const put = (w: MemoryStore.Writer, tenant: Tenant, save: ProcessorConfigSave) => {
    const before = configs.get(key(tenant))
    const stored: Stored = {
      accountId: tenant.accountId,
      livemode: tenant.livemode,
      processor: save.processor,
      surcharge: save.surcharge,
      revision: newRevision(),
      created:
        before !== undefined && before.processor === save.processor ? before.created : save.at,
      updated: save.at,
      sealed: seal(box, tenant, save)
    }
    w.put(TABLE, key(tenant), stored)
    return visible(stored)
  }
  /** The conflict of a change decided against `expected`, or undefined while it still holds. */
  const conflictAt = (tenant: Tenant, expected: string | null) => {
    const found = configs.get(key(tenant))?.revision ?? null
    return found === expected ? undefined : revisionConflict(tenant, expected, found)
  }
  /** The held change applied; the caller checked the revision and holds the store's lock. */
  const apply = (w: MemoryStore.Writer, tenant: Tenant, held: StoredProcessorChange, at: number) =>
    Effect.gen(function* () {
      const { change, credentials } = yield* opened(held)
      const before = configs.get(key(tenant))
      let config: ProcessorConfig
      if (change.action === "save") {
        config = put(w, tenant, {
          processor: change.processor,
          credentials: credentials ?? {},
          surcharge: change.surcharge,
          at
        })
      } else {
        if (before === undefined) return yield* notFound(tenant)
        w.remove(TABLE, key(tenant))
        config = visible(before)
      }
      w.remove(CHANGES, key(tenant))
      return { change, credentials, config }
    })
  const service: ProcessorConfigRepositoryService = {
    get: (tenant) => Effect.map(find(tenant), Option.map(visible)),
    open: (tenant) =>
      Effect.flatMap(find(tenant), (found) =>
        Option.isNone(found)
          ? Effect.succeedNone
          : Effect.map(openCredentials(box, found.value.sealed, found.value), (credentials) =>
              Option.some({ config: visible(found.value), credentials })
            )
      ),
    save: (tenant, save) => store.write((w) => Effect.succeed(put(w, tenant, save))),
    remove: (tenant) =>
      store.write((w) => {
        const before = configs.get(key(tenant))
        if (before === undefined) return Effect.fail(notFound(tenant))
        w.remove(TABLE, key(tenant))
        return Effect.succeed(visible(before))
      }),
    request: (tenant, request) =>
      store.write<ProcessorChange, DuplicateRecord | RevisionConflict>((w) => {
        if (changes.has(key(tenant))) {
          return Effect.fail(new DuplicateRecord({ entity: PENDING_CHANGE, id: tenant.accountId }))
        }
        const stale = conflictAt(tenant, request.expected)
        if (stale) return Effect.fail(stale)
        const change = changeOf(tenant, request)
        const stored: StoredProcessorChange = {
          ...change,
          credentialsCiphertext: sealChange(box, change, request.credentials)
        }
        w.put(CHANGES, key(tenant), stored)
        return Effect.succeed(change)
      }),
    pending: (tenant) =>
      Effect.flatMap(
        store.read(() => changes.get(key(tenant))),
        (held) => (held === undefined ? Effect.succeedNone : Effect.asSome(opened(held)))
      ),
    approve: <E>(tenant: Tenant, approval: ProcessorApproval<E>) =>
      store.write<AppliedProcessorChange, E | RecordNotFound | RevisionConflict | StorageError>(
        (w) => {
          const held = changes.get(key(tenant))
          if (held === undefined || held.id !== approval.id) {
            return Effect.fail(new RecordNotFound({ entity: PENDING_CHANGE, id: approval.id }))
          }
          const stale = conflictAt(tenant, held.baseRevision)
          if (stale) return Effect.fail(stale)
          return Effect.zipRight(
            approval.check(withoutCredentials(held)),
            apply(w, tenant, held, approval.at)
          )
        }
      ),
    cancel: (tenant) =>
      store.write<OpenedProcessorChange, RecordNotFound | StorageError>((w) => {
        const held = changes.get(key(tenant))
        if (held === undefined) {
          return Effect.fail(new RecordNotFound({ entity: PENDING_CHANGE, id: tenant.accountId }))
        }
        w.remove(CHANGES, key(tenant))
        return opened(held)
      })
  }
  return service
})

export const layer = Layer.effect(ProcessorConfigRepository, make)
