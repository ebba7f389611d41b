/** Whose data a call touches: one account in one mode. Every record and every query carries it. */
export interface Tenant {
  readonly accountId: string
  /** `true` for live mode (prod keys), `false` for test mode (dev keys). */
  readonly livemode: boolean
}

/** A tenant from its two parts. */
export const make = (accountId: string, livemode: boolean): Tenant => ({ accountId, livemode })
