/**
 * `@levy/rules/versions`: the snapshot of every released version (`versions/<semver>.json`),
 * for serving, diffing and pinning earlier versions. A separate entry point so that a bundle
 * that needs only the current ruleset (the dashboard's) does not carry every release.
 */
export * as Changelog from "./Changelog.js"
export * as Snapshot from "./Snapshot.js"
export { files as versionFiles } from "./versionFiles.js"
