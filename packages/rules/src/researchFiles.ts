// Written by `npx -y pnpm@10 rules:index` from research/*.json. Do not edit by hand.

/** Every research record, as read from its file (decode before use). */
export const files: ReadonlyArray<{ readonly file: string; readonly json: unknown }> = []
