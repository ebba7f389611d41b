/**
 * The in-memory store's engine: named tables of immutable records, one lock, and an undo
 * log so that a transaction (and every single repository call) is all or nothing.
 *
 * A transaction holds the lock from start to end, so transactions are serializable; reads
 * outside a transaction also take the lock while a transaction is open, so nobody sees
 * another fiber's uncommitted writes. Nested transactions behave like savepoints: a failing inner one undoes only its
 * own writes.
 */
import { Context, Effect, Exit, FiberRef, Layer, Option } from "effect"
import * as Page from "../Page.js"
import { RecordNotFound } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"

type Undo = () => void

/** A table: records by key. Read it freely; write it only through `Writer`. */
export type Table<A> = ReadonlyMap<string, A>

/** Writes that are undone if the enclosing transaction fails. */
export interface Writer {
  readonly put: <A>(table: string, key: string, value: A) => void
  readonly remove: (table: string, key: string) => void
}

/** The in-memory store. */
export interface MemoryStoreService {
  readonly table: <A>(name: string) => Table<A>
  /** Runs `effect` as one transaction (a savepoint when already inside one). */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Runs `f` atomically: its writes all happen, or none if it fails. */
  readonly write: <A, E>(f: (writer: Writer) => Effect.Effect<A, E>) => Effect.Effect<A, E>
  /** Reads without seeing anyone's uncommitted writes. */
  readonly read: <A>(f: () => A) => Effect.Effect<A>
}

/** The in-memory store, one per layer instance. */
export class MemoryStore extends Context.Tag("@levy/storage/MemoryStore")<
  MemoryStore,
  MemoryStoreService
>() {
  static readonly layer = Layer.sync(MemoryStore, () => make())
}

/** A fresh, empty store. */
export const make = (): MemoryStoreService => {
  const tables = new Map<string, Map<string, unknown>>()
  const lock = Effect.unsafeMakeSemaphore(1)
  const logRef = FiberRef.unsafeMake<Array<Undo> | undefined>(undefined)

  const tableOf = (name: string): Map<string, unknown> => {
    let t = tables.get(name)
    if (t === undefined) {
      t = new Map()
      tables.set(name, t)
    }
    return t
  }

  const writer = (log: Array<Undo>): Writer => ({
    put: (table, key, value) => {
      const t = tableOf(table)
      const had = t.has(key)
      const previous = t.get(key)
      t.set(key, value)
      log.push(() => (had ? t.set(key, previous) : t.delete(key)))
    },
    remove: (table, key) => {
      const t = tableOf(table)
      if (!t.has(key)) return
      const previous = t.get(key)
      t.delete(key)
      log.push(() => t.set(key, previous))
    }
  })

  // Outermost transactions running now (0 or 1: they hold the lock). While there are none,
  // nobody has uncommitted writes, and a synchronous read needs no lock.
  let open = 0
  const counted = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.suspend(() => {
      open++
      return Effect.ensuring(
        effect,
        Effect.sync(() => {
          open--
        })
      )
    })

  const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(logRef), (parent) => {
      const log: Array<Undo> = []
      const run = effect.pipe(
        Effect.locally(logRef, log),
        Effect.onExit((exit) =>
          Effect.sync(() => {
            if (Exit.isSuccess(exit)) {
              if (parent !== undefined) parent.push(...log)
            } else {
              for (let i = log.length - 1; i >= 0; i--) log[i]!()
            }
          })
        )
      )
      return parent === undefined ? lock.withPermits(1)(counted(run)) : run
    })

  return {
    table: <A>(name: string) => tableOf(name) as Map<string, A>,
    transaction,
    write: (f) =>
      transaction(
        Effect.flatMap(FiberRef.get(logRef), (log) => Effect.suspend(() => f(writer(log!))))
      ),
    read: (f) =>
      Effect.flatMap(FiberRef.get(logRef), (log) =>
        log === undefined && open > 0 ? lock.withPermits(1)(Effect.sync(f)) : Effect.sync(f)
      )
  }
}

/**
 * A keyset page over an in-memory table of tenant-scoped records: the same filtering,
 * ordering and cursor rules as `SqlSupport.list`.
 */
export const list = <
  A extends {
    readonly accountId: string
    readonly livemode: boolean
    readonly created: number
    readonly id: string
  }
>(
  store: MemoryStoreService,
  table: string,
  entity: string,
  tenant: Tenant,
  request: Page.PageRequest,
  filter: (a: A) => boolean
): Effect.Effect<Page.Page<A>, RecordNotFound> =>
  Effect.flatMap(
    store.read(() => {
      const mine = [...store.table<A>(table).values()].filter(
        (a) => a.accountId === tenant.accountId && a.livemode === tenant.livemode
      )
      const cursorId = request.endingBefore ?? request.startingAfter
      const cursor = cursorId === undefined ? undefined : mine.find((a) => a.id === cursorId)
      if (cursorId !== undefined && cursor === undefined) return Option.none()
      const sorted = mine
        .filter((a) => filter(a) && Page.inRange(a.created, request.created))
        .sort(Page.newestFirst)
      return Option.some(Page.paginate(sorted, request, cursor))
    }),
    Option.match({
      onNone: () =>
        Effect.fail(
          new RecordNotFound({ entity, id: request.endingBefore ?? request.startingAfter ?? "" })
        ),
      onSome: Effect.succeed
    })
  )

/**
 * Deletes up to `limit` records of `table` that `old` picks, oldest (`age`) first, and with
 * each what `alongside` removes (a cascade); returns how many: the retention purge's batch.
 */
export const purge = <A>(
  store: MemoryStoreService,
  table: string,
  old: (record: A) => boolean,
  age: (record: A) => number,
  limit: number,
  alongside: (writer: Writer, key: string, record: A) => void = () => undefined
): Effect.Effect<number> =>
  store.write((w) => {
    const chosen = [...store.table<A>(table).entries()]
      .filter(([, record]) => old(record))
      .sort(([, a], [, b]) => age(a) - age(b))
      .slice(0, Math.max(0, limit))
    for (const [key, record] of chosen) {
      w.remove(table, key)
      alongside(w, key, record)
    }
    return Effect.succeed(chosen.length)
  })
