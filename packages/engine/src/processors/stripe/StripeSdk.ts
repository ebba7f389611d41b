/** The official `stripe` SDK, imported on first use (../LazySdk.ts says why). */
import { lazySdk } from "../LazySdk.js"

export const StripeSdk = lazySdk(async () => (await import("stripe")).default)
