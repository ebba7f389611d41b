/**
 * The shape of most of Levy's numeric settings from the environment: an optional positive
 * integer, absent meaning the default and anything else refused (the server does not start).
 */
import { Config } from "effect"

/** An optional positive integer setting `name` (absent → none; present but not > 0 → fails). */
export const positive = (name: string) =>
  Config.option(
    Config.integer(name).pipe(Config.validate({ message: "must be > 0", validation: (n) => n > 0 }))
  )
