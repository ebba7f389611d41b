/**
 * The module that imports every research record (`src/researchFiles.ts`), written from the
 * files in `research/`: a bundler and the engine need static imports, not a directory read.
 */

/** The module's text for these file names (`SE.json`, ...), in a stable order, as biome formats it. */
export const render = (fileNames: ReadonlyArray<string>): string => {
  const files = fileNames.filter((name) => name.endsWith(".json")).sort()
  const imports = files.map(
    (file, i) => `import r${i} from "../research/${file}" with { type: "json" }\n`
  )
  const entries = files.map((file, i) => `  { file: "${file}", json: r${i} }`)
  return [
    "// Written by `npx -y pnpm@10 rules:index` from research/*.json. Do not edit by hand.\n",
    ...imports,
    "\n",
    "/** Every research record, as read from its file (decode before use). */\n",
    "export const files: ReadonlyArray<{ readonly file: string; readonly json: unknown }> = [",
    entries.length === 0 ? "" : `\n${entries.join(",\n")}\n`,
    "]\n"
  ].join("")
}
