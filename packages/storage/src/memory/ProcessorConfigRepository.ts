/** Processor configurations in the in-memory store. */
import { Effect, Layer, Option } from "effect"
import {
  newRevision,
  notFound,
  openCredentials,
  type ProcessorConfig,
  ProcessorConfigRepository,
  type ProcessorConfigRepositoryService,
  seal
} from "../ProcessorConfigRepository.js"
import { SecretBox } from "../SecretBox.js"
import type { Tenant } from "../Tenant.js"
import * as MemoryStore from "./MemoryStore.js"

const TABLE = "processor_configs"

interface Stored extends ProcessorConfig {
  readonly sealed: string
}

export const make = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const box = yield* SecretBox
  const configs = store.table<Stored>(TABLE)
  const key = (tenant: Tenant) => `${tenant.accountId}/${tenant.livemode}`
  const visible = ({ sealed: _, ...config }: Stored): ProcessorConfig => config
  const find = (tenant: Tenant) => store.read(() => Option.fromNullable(configs.get(key(tenant))))
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
    save: (tenant, save) =>
      store.write((w) => {
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
        return Effect.succeed(visible(stored))
      }),
    remove: (tenant) =>
      store.write((w) => {
        const before = configs.get(key(tenant))
        if (before === undefined) return Effect.fail(notFound(tenant))
        w.remove(TABLE, key(tenant))
        return Effect.succeed(visible(before))
      })
  }
  return service
})

export const layer = Layer.effect(ProcessorConfigRepository, make)
