/**
 * The national law of DE, FR, NL, IE, ES, IT, DK and NO as re-checked in 2026-11:
 * PSD2 Art. 62 as each transposed it, and the national rules beyond it. The source each
 * expectation rests on is quoted beside it; the research record carries its URL.
 */
import { describe, expect, it } from "@effect/vitest"
import { on100, pct, today } from "./lawCases.js"

const visa = { cardNetwork: "visa" }
const amex = { cardNetwork: "amex" }
const business = { cardholder: "business" as const }
const cost = (percent: string) => ({ costOfAcceptance: pct(percent) })

describe("DE: § 270a BGB for consumer four-party cards, § 312a Abs. 4 BGB at cost otherwise", () => {
  it("a consumer Visa card: prohibited (§ 270a S. 2 'nur bei Zahlungsvorgängen mit Verbrauchern')", () => {
    expect(on100("DE", 100, today, visa).reasonCode).toBe("fees_prohibited")
  })

  it("a consumer Amex card: at most the trader's cost (§ 312a Abs. 4 Nr. 2)", () => {
    // jura-basic: void where "das vereinbarte Entgelt über die Kosten hinausgeht".
    expect(on100("DE", 150, today, { ...amex, ...cost("1.5") }).compliant).toBe(true)
    expect(on100("DE", 151, today, { ...amex, ...cost("1.5") }).reasonCode).toBe(
      "over_cost_of_acceptance"
    )
  })

  it("a commercial Visa card and a US-issued consumer card: at cost", () => {
    expect(on100("DE", 100, today, { ...visa, ...business, ...cost("1") }).compliant).toBe(true)
    const us = { ...visa, cardIssuingCountry: "US", ...cost("1") }
    expect(on100("DE", 100, today, us).compliant).toBe(true)
  })

  it("before 2018-01-13 ('m.W.v. 13. Januar 2018'): not modelled, legal uncertainty", () => {
    expect(on100("DE", 100, "2017-06-01", visa).reasonCode).toBe("legal_uncertainty")
  })
})

describe("FR: art. L. 112-12 CMF bans every surcharge since 2009", () => {
  it("commercial Amex cards too ('ne peut appliquer de frais pour l'utilisation d'un instrument de paiement donné')", () => {
    expect(on100("FR", 100, today, { ...amex, ...business, ...cost("2") }).reasonCode).toBe(
      "fees_prohibited"
    )
    expect(on100("FR", 100, "2012-06-01", visa).reasonCode).toBe("fees_prohibited")
  })
})

describe("NL: PSD2 only from 2019-02-19; before, at most cost (art. 6:230k BW)", () => {
  it("a consumer Visa card in 2018: at cost (Rijksoverheid: 'Nu mogen bedrijven de ... kosten ... nog doorberekenen')", () => {
    expect(on100("NL", 150, "2018-06-01", { ...visa, ...cost("1.5") }).compliant).toBe(true)
    expect(on100("NL", 151, "2018-06-01", { ...visa, ...cost("1.5") }).reasonCode).toBe(
      "over_cost_of_acceptance"
    )
  })

  it("from 2019-02-19 ('Op 19 februari 2019 treedt ... PSD2 ... in werking'): prohibited; Amex at cost", () => {
    expect(on100("NL", 100, "2019-02-19", visa).reasonCode).toBe("fees_prohibited")
    expect(on100("NL", 100, today, { ...amex, ...cost("1") }).compliant).toBe(true)
  })
})

describe("IE: S.I. 6/2018 reg. 86", () => {
  it("consumer Visa prohibited; three-party and commercial cards at cost (Minister for Finance, 2018-03-06)", () => {
    // "the prohibition on surcharging does not cover transactions with commercial cards or ...
    // three party payment card schemes ... must not exceed the direct costs".
    expect(on100("IE", 100, today, visa).reasonCode).toBe("fees_prohibited")
    expect(on100("IE", 120, today, { ...amex, ...cost("1.2") }).compliant).toBe(true)
    expect(on100("IE", 121, today, { ...visa, ...business, ...cost("1.2") }).reasonCode).toBe(
      "over_cost_of_acceptance"
    )
  })
})

describe("ES: RDL 8/2014 art. 12 from 2014-09-01, RDL 19/2018 from 2018-11-25", () => {
  it("a Spanish consumer card in 2016: prohibited ('no podrán exigir al ordenante el pago de gastos')", () => {
    expect(on100("ES", 100, "2016-06-01", { ...visa, cardIssuingCountry: "ES" }).reasonCode).toBe(
      "fees_prohibited"
    )
  })

  it("a French-issued consumer card: at cost in 2016, prohibited after the PSD2 transposition", () => {
    const french = { ...visa, cardIssuingCountry: "FR", ...cost("1") }
    expect(on100("ES", 100, "2016-06-01", french).compliant).toBe(true)
    expect(on100("ES", 100, today, french).reasonCode).toBe("fees_prohibited")
  })

  it("business cards were outside the 2014 caps ('tampoco limita las comisiones de tarjetas de empresa'): at cost", () => {
    expect(on100("ES", 100, today, { ...visa, ...business, ...cost("1") }).compliant).toBe(true)
  })
})

describe("IT: d.lgs. 11/2010 art. 3(4), art. 62 Codice del Consumo", () => {
  it("consumers: every card, Amex and foreign-issued included ('qualsiasi sia l'emittente')", () => {
    expect(on100("IT", 100, today, { ...amex, ...cost("3") }).reasonCode).toBe("fees_prohibited")
    const us = { ...visa, cardIssuingCountry: "US", ...cost("3") }
    expect(on100("IT", 100, today, us).reasonCode).toBe("fees_prohibited")
  })

  it("commercial cards: prohibited under the 2010 text ('al pagatore') and since 2018-01-13 ('a carico del pagatore', Normattiva)", () => {
    expect(on100("IT", 100, "2015-06-01", { ...visa, ...business }).reasonCode).toBe(
      "fees_prohibited"
    )
    // d.lgs. 11/2010 art. 3(4) as amended by d.lgs. 218/2017: "Il beneficiario non può applicare
    // a carico del pagatore spese relative all'utilizzo di strumenti di pagamento" (any payer).
    expect(on100("IT", 100, "2018-01-13", { ...visa, ...business }).reasonCode).toBe(
      "fees_prohibited"
    )
    expect(on100("IT", 100, today, { ...amex, ...business, ...cost("3") }).reasonCode).toBe(
      "fees_prohibited"
    )
  })
})

describe("DK: the Danish debit-card rule before 2018, lov om betalinger from 2018-01-01", () => {
  it("before 2018, in a shop: no fee on a debit card such as Dankort (KFST: 'ikke opkræve gebyr, når du betaler med et debetkort')", () => {
    const shop = { channel: "in_person" as const, ...cost("1") }
    expect(on100("DK", 50, "2017-06-01", { ...shop, cardType: "debit" }).reasonCode).toBe(
      "card_type_not_allowed"
    )
    expect(on100("DK", 100, "2017-06-01", shop).compliant).toBe(true)
  })

  it("before 2018, online: any card at most the acquirer's fee", () => {
    const online = { cardType: "debit" as const, ...cost("0.5") }
    expect(on100("DK", 50, "2017-12-31", online).compliant).toBe(true)
    expect(on100("DK", 51, "2017-12-31", online).reasonCode).toBe("over_cost_of_acceptance")
  })

  it("from 2018-01-01 ('Fra den 1. januar 2018'): consumer cards prohibited, firmakort and Amex at cost", () => {
    expect(on100("DK", 100, "2018-01-01", visa).reasonCode).toBe("fees_prohibited")
    expect(on100("DK", 100, today, { ...amex, ...cost("1") }).compliant).toBe(true)
    expect(on100("DK", 100, today, { ...visa, ...business, ...cost("1") }).compliant).toBe(true)
  })
})

describe("NO: EEA, PSD2 transposed by finansavtaleloven 2020 from 2023-01-01", () => {
  it("in 2020 a consumer Visa card could be surcharged (Prop. 92 LS: 'gjeldende § 39 b ... kan kreve gebyr')", () => {
    expect(on100("NO", 200, "2020-06-01", visa).compliant).toBe(true)
  })

  it("from 2023-01-01: consumer Visa prohibited, firmakort at cost", () => {
    expect(on100("NO", 100, "2023-01-01", visa).reasonCode).toBe("fees_prohibited")
    expect(on100("NO", 100, today, { ...visa, ...business, ...cost("1") }).compliant).toBe(true)
    expect(on100("NO", 101, today, { ...visa, ...business, ...cost("1") }).reasonCode).toBe(
      "over_cost_of_acceptance"
    )
  })
})
