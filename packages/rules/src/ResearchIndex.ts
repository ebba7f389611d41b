/**
 * The modules that import every research record (`src/researchFiles.ts`) and every released
 * version (`src/versionFiles.ts`), written from the files in their folder: a bundler and the
 * engine need static imports, not a directory read.
 */

/** Which folder a module imports, the command that writes it, and what its files are. */
export interface Target {
  readonly folder: string
  readonly command: string
  readonly doc: string
}

export const RESEARCH: Target = {
  folder: "research",
  command: "rules:index",
  doc: "Every research record, as read from its file (decode before use)."
}

export const VERSIONS: Target = {
  folder: "versions",
  command: "rules:snapshot",
  doc: "Every released version's snapshot, as read from its file (decode before use)."
}

/** The module's text for these file names (`SE.json`, ...), in a stable order, as biome formats it. */
export const render = (fileNames: ReadonlyArray<string>, target: Target = RESEARCH): string => {
  // By name without ".json", as biome sorts the imports: `CA.json` before `CA-AB.json`.
  const stem = (name: string) => name.slice(0, -".json".length)
  const files = fileNames
    .filter((name) => name.endsWith(".json"))
    .sort((a, b) => (stem(a) < stem(b) ? -1 : stem(a) > stem(b) ? 1 : 0))
  const imports = files.map(
    (file, i) => `import r${i} from "../${target.folder}/${file}" with { type: "json" }\n`
  )
  const entries = files.map((file, i) => `  { file: "${file}", json: r${i} }`)
  return [
    `// Written by \`npx -y pnpm@10 ${target.command}\` from ${target.folder}/*.json. Do not edit by hand.\n`,
    ...imports,
    "\n",
    `/** ${target.doc} */\n`,
    "export const files: ReadonlyArray<{ readonly file: string; readonly json: unknown }> = [",
    entries.length === 0 ? "" : `\n${entries.join(",\n")}\n`,
    "]\n"
  ].join("")
}
