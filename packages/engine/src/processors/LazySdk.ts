/**
 * A processor's SDK, loaded on its first use instead of at start-up. The SDKs are large
 * (Adyen's library alone carries ~30 MB of generated models) and most processes never call
 * one: every CLI command, and a server whose accounts all use the simulator. Loading both
 * eagerly was about a quarter of the CPU every `levy` process spent starting
 * (docs/performance.md "Start-up").
 */
export interface LazySdk<M> {
  /** The module, imported once. */
  readonly load: () => Promise<M>
  /**
   * The module if a call has loaded it, else undefined: an error can be one of its classes
   * only after something loaded it, so an `instanceof` check needs no import.
   */
  readonly ifLoaded: () => M | undefined
}

export const lazySdk = <M>(importer: () => Promise<M>): LazySdk<M> => {
  let loaded: M | undefined
  let loading: Promise<M> | undefined
  return {
    load: () => {
      loading ??= importer().then((module) => {
        loaded = module
        return module
      })
      return loading
    },
    ifLoaded: () => loaded
  }
}
