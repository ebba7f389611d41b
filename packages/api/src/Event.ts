/**
 * An event (`object: "event"`, id `evt_…`): a state change, written with it in one
 * transaction and delivered to webhook endpoints (specification "Events", docs/design.md §8).
 */
import { Schema } from "effect"
import { Charge } from "./Charge.js"
import { Dispute } from "./Dispute.js"
import { FeeConfig } from "./FeeConfig.js"
import { Livemode, oneOf, PrefixedId, Timestamp } from "./Field.js"
import {
  DeletedProcessorConfig,
  ProcessorConfig,
  ProcessorConfigChange
} from "./ProcessorConfig.js"
import { Refund } from "./Refund.js"
import { RulesetChange } from "./RulesetChange.js"

/** An event id, `evt_…`. */
export const EventId = PrefixedId("evt")

/**
 * The event types of the specification, the dispute's later changes (docs/design.md §8):
 * `dispute.updated` while it is open, `dispute.closed` when won or lost, and `refund.failed`
 * when the processor fails a refund it had accepted; and every change of the processor
 * configuration (docs/design.md §4): saved, deleted, and a live-mode change requested (held
 * for another key) or cancelled; and `ruleset.changed` when the law is about to change an
 * account's fee (docs/design.md §3 "Changes announced").
 */
export const EventType = oneOf(
  "charge.succeeded",
  "charge.failed",
  "charge.refunded",
  "dispute.created",
  "dispute.updated",
  "dispute.closed",
  "refund.failed",
  "fee_config.updated",
  "processor_config.updated",
  "processor_config.deleted",
  "processor_config.change_requested",
  "processor_config.change_cancelled",
  "ruleset.changed"
).annotations({ identifier: "EventType" })
export type EventType = typeof EventType.Type

/** Every event type, for webhook subscriptions. */
export const eventTypes: ReadonlyArray<EventType> = EventType.literals

/**
 * The event. `data.object` is the resource as it was after the change: a charge (also for
 * refunds), dispute, refund (`refund.failed`), fee configuration, processor configuration
 * (credentials masked; `deleted: true` once deleted), held processor configuration change, or
 * the ruleset change (`ruleset.changed`).
 */
export const Event = Schema.Struct({
  id: EventId,
  object: Schema.Literal("event"),
  type: EventType,
  data: Schema.Struct({
    object: Schema.Union(
      Charge,
      Dispute,
      Refund,
      FeeConfig,
      ProcessorConfig,
      DeletedProcessorConfig,
      ProcessorConfigChange,
      RulesetChange
    )
  }),
  created: Timestamp,
  livemode: Livemode
}).annotations({ identifier: "Event" })
export type Event = typeof Event.Type
