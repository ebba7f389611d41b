/** An idempotency key's limits, the same at every door (the HTTP header and in-process options). */

/** Longest key, as Stripe takes it. */
export const MAX_LENGTH = 255

/** Whether `key` is a key Levy takes: 1 to `MAX_LENGTH` characters. */
export const isValid = (key: string): boolean => key.length > 0 && key.length <= MAX_LENGTH
