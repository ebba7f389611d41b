/**
 * What a payment's card tells the rules beyond its type: where it was issued relative to the
 * place of payment, and the kind of scheme its network is.
 */
import type { Issuing, Scheme } from "./Rule.js"

/** The European Economic Area: the EU's 27 and Iceland, Liechtenstein, Norway (PSD2's "same area"). */
export const EEA: ReadonlySet<string> = new Set([
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
  "IS",
  "LI",
  "NO"
])

/**
 * Whether a place of payment is in the EEA: a member state, or the region `EU` itself, which
 * stands for a payment somewhere in the area under the area-wide rule (PSD2).
 */
const inArea = (place: string): boolean => place === "EU" || EEA.has(place)

/**
 * A card issued in `issuer` (ISO 3166-1 alpha-2) seen from a payment in `country` (alpha-2, or
 * `EU` for the area-wide region).
 */
export const issuingOf = (country: string, issuer: string): Issuing =>
  issuer === country ? "domestic" : EEA.has(issuer) && inArea(country) ? "same_area" : "foreign"

/**
 * The scheme kind of a network by its name; undefined for a network not listed here, which the
 * rules then treat as unknown (the strictest). Three-party: the scheme issues and acquires
 * itself (the EU's Interchange Fee Regulation leaves them outside its caps, Art. 1(5)).
 */
export const schemeOf = (network: string): Scheme | undefined => SCHEMES[network]

const SCHEMES: Readonly<Record<string, Scheme>> = {
  visa: "four_party",
  mastercard: "four_party",
  maestro: "four_party",
  amex: "three_party",
  diners: "three_party",
  eftpos: "national_debit",
  interac: "national_debit"
}
