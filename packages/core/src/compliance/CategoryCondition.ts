/**
 * A rule's condition on the merchant's category in a reason's words: the category the payment's
 * merchant states, when a clause of the rule names it ("for a merchant of category 4121"), so a
 * refusal says why it differs from another merchant's in the same place.
 */
import type { Rule } from "./Rule.js"

/** The words to add after a rule's name; "" when no clause of the rule names the category. */
export const phrase = (rule: Rule | undefined, category: string | undefined): string =>
  category !== undefined &&
  (rule?.clauses ?? []).some((c) => c.scope.merchantCategories?.includes(category) === true)
    ? `, for a merchant of category ${category}`
    : ""
