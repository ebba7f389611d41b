/**
 * The receiver's own records, updated from events. Every event is applied at most once (by
 * its id: deliveries are retried and may arrive twice), and each handler sets state from the
 * object in the event rather than adding to it, so even a replayed or reordered event cannot
 * double-count.
 */
import type { WebhookEvent } from "@levy/client"

export interface Order {
  readonly chargeId: string
  readonly status: "paid" | "failed"
  readonly total: number
  readonly refunded: number
  readonly failureCode?: string | undefined
  readonly disputed: boolean
}

/** The parts of the objects this receiver reads. */
interface ChargeObject {
  readonly id: string
  readonly status: string
  readonly totalAmount: number
  readonly amountRefunded: number
  readonly failureCode?: string
}
interface DisputeObject {
  readonly id: string
  readonly charge: string
}
interface FeeConfigObject {
  readonly percentage: number
  readonly flatFee: number
}

export class Ledger {
  readonly orders = new Map<string, Order>()
  readonly processed = new Set<string>()
  feeConfig: FeeConfigObject | undefined
  /** Event types this receiver does not handle, for the operator to look at. */
  readonly ignored: Array<string> = []

  /** Applies `event` unless it was applied before; returns whether it was new. */
  apply(event: WebhookEvent): boolean {
    if (this.processed.has(event.id)) return false
    switch (event.type) {
      case "charge.succeeded":
      case "charge.failed":
      case "charge.refunded":
        this.charge(event.data.object as ChargeObject)
        break
      case "dispute.created":
        this.dispute(event.data.object as DisputeObject)
        break
      case "fee_config.updated": {
        const { percentage, flatFee } = event.data.object as FeeConfigObject
        this.feeConfig = { percentage, flatFee }
        break
      }
      default:
        this.ignored.push(event.type)
    }
    this.processed.add(event.id)
    return true
  }

  private charge(charge: ChargeObject) {
    const before = this.orders.get(charge.id)
    this.orders.set(charge.id, {
      chargeId: charge.id,
      status: charge.status === "failed" ? "failed" : "paid",
      total: charge.totalAmount,
      // the charge carries the running total: taking the larger keeps a late, older event harmless
      refunded: Math.max(before?.refunded ?? 0, charge.amountRefunded),
      failureCode: charge.failureCode,
      disputed: before?.disputed ?? false
    })
  }

  private dispute(dispute: DisputeObject) {
    const order = this.orders.get(dispute.charge)
    if (order !== undefined) this.orders.set(dispute.charge, { ...order, disputed: true })
  }
}
