/**
 * The API the server serves: the whole `LevyApi` contract. Handlers are built against this
 * name so the server's files read the same whatever the contract's module is called.
 */
import { LevyApi } from "@levy/api"

export const ServerApi = LevyApi.LevyApi
