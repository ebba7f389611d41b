/** Processor configurations on PostgreSQL and the embedded store. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option } from "effect"
import {
  newRevision,
  notFound,
  openCredentials,
  type ProcessorConfig,
  ProcessorConfigRepository,
  type ProcessorConfigRepositoryService,
  type StoredProcessorConfig,
  seal
} from "../ProcessorConfigRepository.js"
import { SecretBox } from "../SecretBox.js"
import type { Tenant } from "../Tenant.js"
import * as SqlSupport from "./SqlSupport.js"
import { processorConfigs } from "./Tables.js"

const visible = ({ credentialsCiphertext: _, ...config }: StoredProcessorConfig): ProcessorConfig =>
  config

export const make = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const box = yield* SecretBox
  const columns = processorConfigs.select(sql)
  const select = (tenant: Tenant) =>
    sql`SELECT ${columns} FROM processor_configs
      WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}`.pipe(
      SqlSupport.orStorageError,
      Effect.flatMap(SqlSupport.maybeOne(processorConfigs))
    )
  const service: ProcessorConfigRepositoryService = {
    get: (tenant) => Effect.map(select(tenant), Option.map(visible)),
    open: (tenant) =>
      Effect.flatMap(select(tenant), (found) =>
        Option.isNone(found)
          ? Effect.succeedNone
          : Effect.map(
              openCredentials(box, found.value.credentialsCiphertext, found.value),
              (credentials) => Option.some({ config: visible(found.value), credentials })
            )
      ),
    save: (tenant, save) => {
      const stored: StoredProcessorConfig = {
        accountId: tenant.accountId,
        livemode: tenant.livemode,
        processor: save.processor,
        surcharge: save.surcharge,
        revision: newRevision(),
        created: save.at,
        updated: save.at,
        credentialsCiphertext: seal(box, tenant, save)
      }
      return sql`INSERT INTO processor_configs AS c ${processorConfigs.insert(sql, stored)}
        ON CONFLICT (account_id, livemode) DO UPDATE SET
          processor = EXCLUDED.processor,
          credentials_ciphertext = EXCLUDED.credentials_ciphertext,
          surcharge = EXCLUDED.surcharge,
          revision = EXCLUDED.revision,
          created = CASE WHEN c.processor = EXCLUDED.processor THEN c.created ELSE EXCLUDED.created END,
          updated = EXCLUDED.updated
        RETURNING ${processorConfigs.select(sql, "c")}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.returned(processorConfigs)),
        Effect.map(visible)
      )
    },
    remove: (tenant) =>
      sql`DELETE FROM processor_configs
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
        RETURNING ${columns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.maybeOne(processorConfigs)),
        Effect.flatMap(
          Option.match({
            onNone: () => Effect.fail(notFound(tenant)),
            onSome: (stored) => Effect.succeed(visible(stored))
          })
        )
      )
  }
  return service
})

export const layer = Layer.effect(ProcessorConfigRepository, make)
