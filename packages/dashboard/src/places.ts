/**
 * A region's name as a person reads it: a subdivision's own name ("New York"), a country's
 * from the browser's `Intl.DisplayNames` ("Germany", "European Union"), the code itself where
 * the browser has none.
 */
const countries = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" })

/** "US-NY" → "New York"; "DE" → "Germany". */
export const placeName = (region: { readonly country: string; readonly state: string | null }) =>
  region.state ?? countryName(region.country)

/** "DE" → "Germany"; an unknown code stays the code. */
export const countryName = (code: string): string => {
  try {
    return countries.of(code) ?? code
  } catch {
    return code
  }
}
