/** The official `@adyen/api-library`, imported on first use (../LazySdk.ts says why). */
import { lazySdk } from "../LazySdk.js"

export const AdyenSdk = lazySdk(async () => (await import("@adyen/api-library")).default)
