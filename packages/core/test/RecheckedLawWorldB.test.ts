/**
 * The law of Asia, Latin America, the Middle East and Africa as re-checked in 2026-11 (issue
 * 14): the research records of 1.1.0 re-read against the regulators and the card networks.
 * No verdict changed; these cases pin each record's dated regimes on both sides of their dates
 * and today's verdict, with the source each rests on quoted beside it (the records carry the
 * URLs).
 */
import { describe, expect, it } from "@effect/vitest"
import { on100, today } from "./lawCases.js"

const convenience = { feeType: "convenience_fee" as const, flatPart: 100 }

describe("CN: PBOC Announcement [2013] No. 9, dated and in force 2013-07-05", () => {
  it("before 2013-07-05 not researched: legal uncertainty", () => {
    expect(on100("CN", 100, "2013-07-04").reasonCode).toBe("legal_uncertainty")
  })

  it("from 2013-07-05 prohibited ('現予發布實施。 人民銀行 2013年7月5日')", () => {
    // People's Daily: merchants may not "收取或變相收取附加費用" because a bank card is used.
    expect(on100("CN", 100, "2013-07-05").reasonCode).toBe("fees_prohibited")
    expect(on100("CN", 100, today).reasonCode).toBe("fees_prohibited")
  })
})

describe("TR: Law No. 5464 art. 17, published in the Resmî Gazete on 2006-03-01", () => {
  it("before publication ('Yayımlandığı R.Gazete : Tarih: 1/3/2006'): legal uncertainty", () => {
    expect(on100("TR", 100, "2006-02-28").reasonCode).toBe("legal_uncertainty")
  })

  it("from 2006-03-01: no additional payment 'komisyon veya benzeri bir isim altında'", () => {
    expect(on100("TR", 100, "2006-03-01").reasonCode).toBe("fees_prohibited")
    expect(on100("TR", 100, today, { cardType: "debit" }).reasonCode).toBe("fees_prohibited")
  })
})

describe("BR: Law 13.455/2017 (MP 764 of 2016-12-26) allows price differentiation", () => {
  it("before: an abusive practice (STJ REsp 1.479.039-MG)", () => {
    expect(on100("BR", 300, "2015-06-01").reasonCode).toBe("fees_prohibited")
  })

  it("from 2016-12-27: permitted, no cap, disclosed ('em local e formato visíveis ao consumidor')", () => {
    expect(on100("BR", 500, "2016-12-27").compliant).toBe(true)
    expect(on100("BR", 500, today).compliant).toBe(true)
    expect(on100("BR", 500, today, { disclosed: false }).reasonCode).toBe("disclosure_required")
  })
})

describe("SA: Ministry of Commerce (2014-10-25) and SAMA rulebook art. 60", () => {
  it("before and after 2014-10-25 prohibited (Visa rules; then the Ministry's ban)", () => {
    expect(on100("SA", 100, "2014-06-01").reasonCode).toBe("fees_prohibited")
    // SAMA art. 60: merchants "cannot pass on or impose any additional fees or charges".
    expect(on100("SA", 100, today).reasonCode).toBe("fees_prohibited")
  })
})

describe("AE: the Supreme Committee's ban from 2011-07-01", () => {
  it("a surcharge is prohibited before (Visa contracts) and after the ban", () => {
    expect(on100("AE", 100, "2011-06-30").reasonCode).toBe("fees_prohibited")
    // Emarat Al Youm (2025): a resolution "effective July 1, 2011", fines up to AED 100,000.
    expect(on100("AE", 100, today).reasonCode).toBe("fees_prohibited")
  })

  it("a convenience fee since 2011 stays uncertain (government services were outside the ban)", () => {
    expect(on100("AE", 100, today, convenience).reasonCode).toBe("legal_uncertainty")
  })
})

describe("VN: Circular 19/2016 from 2016-08-15, replaced by Circular 18/2024 on 2024-07-01", () => {
  it("before 2016-08-15 not researched: legal uncertainty", () => {
    expect(on100("VN", 100, "2016-08-14").reasonCode).toBe("legal_uncertainty")
  })

  it("under both circulars prohibited ('Merchants collect additional fees ...' is a prohibited act)", () => {
    expect(on100("VN", 100, "2024-06-30").reasonCode).toBe("fees_prohibited")
    // Circular 18/2024 'có hiệu lực thi hành kể từ ngày 01 tháng 07 năm 2024'; its clause not read.
    expect(on100("VN", 100, "2024-07-01").reasonCode).toBe("fees_prohibited")
  })
})

describe("PH: DTI DAO 10 s. 2006, 'starting November 5, 2006'", () => {
  it("before: legal uncertainty; from 2006-11-05: prohibited, debit too", () => {
    expect(on100("PH", 100, "2006-11-04").reasonCode).toBe("legal_uncertainty")
    expect(on100("PH", 100, "2006-11-05").reasonCode).toBe("fees_prohibited")
    // DAO 21-03 (2021): "the sale price remains the same" for debit/credit/prepaid cards.
    expect(on100("PH", 100, today, { cardType: "debit" }).reasonCode).toBe("fees_prohibited")
  })
})

describe("IL, AR, TW, PA: dated bans confirmed", () => {
  it("IL: the Commissioner's directive of 2014-03-24 ('גביית עמלה נפרדת ... אסורה')", () => {
    expect(on100("IL", 100, "2014-03-23").reasonCode).toBe("legal_uncertainty")
    expect(on100("IL", 100, today).reasonCode).toBe("fees_prohibited")
  })

  it("AR: Law 25.065 art. 37 c) from 1999-01-14, untouched by DNU 70/2023", () => {
    expect(on100("AR", 100, "1999-01-13").reasonCode).toBe("legal_uncertainty")
    expect(on100("AR", 100, today, { cardType: "debit" }).reasonCode).toBe("fees_prohibited")
  })

  it("TW: from the Bureau of Monetary Affairs letter of 1998-03-02 ('不得...加收手續費')", () => {
    expect(on100("TW", 100, "1998-03-01").reasonCode).toBe("legal_uncertainty")
    expect(on100("TW", 100, today).reasonCode).toBe("fees_prohibited")
  })

  it("PA: Law 81 of 2009 applies from 2010-01-01, 'el día siguiente al de su promulgación' (art. 60; G.O. 26438-B of 2009-12-31)", () => {
    expect(on100("PA", 100, "2009-12-31").reasonCode).toBe("legal_uncertainty")
    expect(on100("PA", 100, "2010-01-01").reasonCode).toBe("card_type_not_allowed")
  })

  it("PA: Law 81 of 2009 bans credit-card surcharges; debit stays uncertain (ACODECO 2025)", () => {
    expect(on100("PA", 100, today).reasonCode).toBe("card_type_not_allowed")
    expect(on100("PA", 100, today, { cardType: "debit" }).reasonCode).toBe("legal_uncertainty")
  })
})

describe("undated bans confirmed in 2026-11", () => {
  it.each([
    ["JP", "JCB merchant rules art. 11(2): no price different from cash customers"],
    ["KR", "Specialized Credit Finance Business Act art. 19"],
    ["MX", "LFPC art. 7 Bis (Profeco, Aug 2025); art. 7 Ter not enacted"],
    ["SG", "networks' rules in the acquirers' contracts (Visa, 2013)"],
    ["HK", "Consumer Council 2008: 'merchants must NOT add any surcharges'"],
    ["ZA", "PASA rules; CGSO 2025: 'unlawful ... to charge extra'"],
    ["ID", "PBI 23/6/PBI/2021 art. 52(1) (BI, Oct 2024)"],
    ["QA", "Ministry of Commerce and Industry (2023)"],
    ["NG", "CBN: 'Under no circumstance shall a merchant charge a surcharge'"],
    ["TH", "card-network rules only (low)"]
  ])("%s: prohibited (%s)", (region) => {
    expect(on100(region, 100, today).reasonCode).toBe("fees_prohibited")
  })

  it("IN: a surcharge is prohibited (RBI/2013-14/292: 'not permissible as per the bilateral agreement'); a convenience fee is uncertain", () => {
    expect(on100("IN", 100, today).reasonCode).toBe("fees_prohibited")
    expect(on100("IN", 100, today, convenience).reasonCode).toBe("legal_uncertainty")
  })
})

describe("permitted with notice, or uncertain, in 2026-11", () => {
  it("CO: no express prohibition, announced beforehand (SIC, 2024: 'no hay una prohibición expresa')", () => {
    expect(on100("CO", 500, today).compliant).toBe(true)
    expect(on100("CO", 500, today, { disclosed: false }).reasonCode).toBe("disclosure_required")
  })

  it("PE: allowed if shown before the purchase (Indecopi, Dec 2025)", () => {
    expect(on100("PE", 500, today).compliant).toBe(true)
    expect(on100("PE", 500, today, { disclosed: false }).reasonCode).toBe("disclosure_required")
  })

  it("CL: no statute, SERNAC or CMF rule found: legal uncertainty", () => {
    expect(on100("CL", 100, today).reasonCode).toBe("legal_uncertainty")
  })
})
