/**
 * Where the checkout finds Levy: a Levy server elsewhere (its URL and the account's two test
 * keys), or Levy in this process on a memory store, mounted by the backend under `/levy`, with
 * a new account (the way `levy serve` makes the development account).
 */
import { Mount, type MountedLevy } from "@levy/server"

export interface External {
  /** The server's address, without `/v1`, as both the page and the backend reach it. */
  readonly url: string
  /** The test-mode secret key: the backend charges with it. */
  readonly secretKey: string
  /** The test-mode publishable key: the page quotes with it. */
  readonly publishableKey: string
}

export interface InProcess {
  readonly mounted: MountedLevy
  readonly accountId: string
  readonly secretKey: string
  readonly publishableKey: string
}

/** Levy in this process, with a fresh account whose keys are returned once. */
export const inProcess = async (): Promise<InProcess> => {
  const mounted = await Mount.make({ store: { store: "memory" } })
  try {
    const account = await mounted.createAccount("Checkout page example")
    return {
      mounted,
      accountId: account.accountId,
      secretKey: account.keys.secretDev,
      publishableKey: account.keys.publishableDev
    }
  } catch (error) {
    await mounted.close()
    throw error
  }
}
