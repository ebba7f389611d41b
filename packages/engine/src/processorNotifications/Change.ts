/** What applying one processor notification did (docs/design.md §8). */
export type Change =
  /** Levy's state changed (and its events were written). */
  | "applied"
  /** Levy already had what the notification says (or it came too late): nothing changed. */
  | "known"
  /** The notification is about a payment Levy did not make: acknowledged and ignored. */
  | "unknown_payment"
