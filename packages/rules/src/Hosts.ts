/**
 * Hosts a research record may not rest on (docs/compliance.md, "Sourcing standard"). Levy
 * prints every citation to its users as its authority (`levy rules diff`, `GET /v1/regions`),
 * so a host that is no authority on card-fee law is never cited, and a host that only copies
 * or relays the law is cited as what it is: `secondary`. A host matches itself and its
 * subdomains (`scribd.com` matches `es.scribd.com`).
 */

/** Never cited: document-sharing and content-farm sites, and private pages copying an authority. */
export const noAuthority: ReadonlyArray<readonly [host: string, why: string]> = [
  ["info.5y1.org", "content farm"],
  ["docslib.org", "document-sharing site"],
  ["yumpu.com", "document-sharing site"],
  ["scribd.com", "document-sharing site"],
  ["slideshare.net", "document-sharing site"],
  ["studylib.net", "document-sharing site"],
  ["slidegur.com", "document-sharing site"],
  ["docplayer.se", "document-sharing site"],
  ["docplayer.net", "document-sharing site"],
  ["fdocuments.in", "document-sharing site"],
  ["fdocuments.net", "document-sharing site"],
  ["pdfslide.net", "document-sharing site"],
  ["vdocuments.mx", "document-sharing site"],
  ["zbook.org", "document-sharing site"],
  ["doczz.net", "document-sharing site"],
  ["fdokument.com", "document-sharing site"],
  ["pdfcoffee.com", "document-sharing site"],
  ["123dok.net", "document-sharing site"],
  ["manuals.plus", "content site for product manuals"],
  ["mobeloginterior.no", "furniture trade magazine"],
  ["muggaccinos.com", "private site copying RBA papers"],
  ["scratch.software", "private site copying Visa's rules"],
  ["yunpinvg.com", "unrelated site copying a PBOC announcement"],
  ["zoppoz.workers.dev", "a proxy of another site"],
  ["lebron.us.kg", "unrelated blog"],
  ["o-abroad.com", "news aggregator re-publishing others' articles"],
  ["documents.pub", "document-sharing site"],
  ["readkong.com", "document-sharing site"],
  ["vdocuments.us", "document-sharing site"],
  ["vdocuments.site", "document-sharing site"],
  ["vdocuments.co", "document-sharing site"],
  ["vdocument.in", "document-sharing site"],
  ["123dok.com", "document-sharing site"],
  ["pubhtml5.com", "document-sharing site"],
  ["paperzz.com", "document-sharing site"],
  ["spotidoc.com", "document-sharing site"],
  ["shareslide.org", "document-sharing site"],
  ["financedocbox.com", "document-sharing site"],
  ["lawsdocbox.com", "document-sharing site"],
  ["pdfkul.com", "document-sharing site"],
  ["slideserve.com", "presentation-sharing site"],
  ["pdfslide.us", "document-sharing site"],
  ["cupdf.com", "document-sharing site"],
  ["fdocuments.fr", "document-sharing site"],
  ["fdocuments.us", "document-sharing site"],
  ["studyres.com", "document-sharing site"],
  ["abcdocz.com", "document-sharing site"],
  ["docest.com", "document-sharing site"],
  ["pdfprof.com", "document-sharing site"],
  ["documentine.com", "document-sharing site"],
  ["docplayer.org", "document-sharing site"],
  ["docplayer.gr", "document-sharing site"],
  ["legalclarity.org", "explainer site stating laws that do not exist"],
  ["stateregstoday.com", "content farm with false figures"],
  ["finsuranceguide.com", "content farm with false figures"],
  ["foodhandlersguide.com", "content farm with false statements"],
  ["cardvcc.com", "a virtual-card seller's blog"],
  ["joingerald.com", "a cash-advance app's blog"],
  ["textingtactics.com", "unrelated site copying Mastercard's rules"],
  ["data.emka.web.id", "private site re-publishing Bank Indonesia regulations"],
  ["greenapplemail.com", "spam page copying Yukon Hansard"]
]

/**
 * Cited only as `secondary`: they copy or relay what an authority wrote (law-text aggregators,
 * bill trackers, acquirers and processors relaying a network's rules, the press reporting a
 * regulator). The authority's own page is the primary source.
 */
export const secondaryOnly: ReadonlyArray<readonly [host: string, why: string]> = [
  ["justia.com", "copies of statutes and opinions"],
  ["casetext.com", "copies of statutes and opinions"],
  ["d1tvxue8o4w0fl.cloudfront.net", "casetext's copies of statutes"],
  ["findlaw.com", "copies of statutes"],
  ["instalawyer.io", "copies of statutes"],
  ["counselstack.com", "copies of statutes"],
  ["lexace.ai", "copies of statutes"],
  ["getpocketlaw.com", "copies of statutes"],
  ["legalfix.com", "copies of statutes"],
  ["lawserver.com", "copies of statutes"],
  ["self-law.org", "copies of statutes"],
  ["syfert.com", "copies of statutes"],
  ["vlex.com", "copies of opinions"],
  ["midpage.ai", "copies of opinions"],
  ["legiscan.com", "bill tracker"],
  ["legiplex.com", "bill tracker"],
  ["fastdemocracy.com", "bill tracker"],
  ["vulcanbills.com", "bill tracker"],
  ["billtrack50.com", "bill tracker"],
  ["pluralpolicy.com", "bill tracker"],
  ["paclii.org", "copies of Pacific legislation"],
  ["licen.ai", "copies of Panamanian law"],
  ["utahlexgraph.pages.dev", "copies of the Utah Code"],
  ["buzer.de", "copies of German statutes"],
  ["dein-gesetz.de", "copies of German statutes"],
  ["buergerliches-gesetzbuch.net", "copies of German statutes"],
  ["lexisnexis.at", "commercial copy of Austrian law"],
  ["ciela.net", "commercial copy of Bulgarian law"],
  ["leyes-ar.com", "copies of Argentine law"],
  ["bancherul.ro", "banking news site copying Romanian law"],
  ["smartleges.com", "copies of statutes"],
  ["juriblio.fr", "copies of French official texts"],
  ["doctrine.it", "commercial copy of Italian law"],
  ["vanbanphapluat.co", "copies of Vietnamese law"],
  ["dulieuphapluat.vn", "copies of Vietnamese law"],
  ["lawnet.vn", "copies of Vietnamese law"],
  ["blogspot.com", "personal blogs"],
  ["parallelparliament.co.uk", "copies of Hansard"],
  ["kildarestreet.com", "copies of Dáil debates"],
  ["mil-osi.com", "press-release aggregator"],
  ["mikeligalig.com", "news aggregator"],
  ["15min.lt", "news site"],
  ["helpconsumatori.it", "news site"],
  ["morinvillenews.com", "news site"],
  ["stjohntradewinds.com", "news site"],
  ["paya.helpjuice.com", "a processor's help pages relaying Visa"],
  ["fibabanka.com.tr", "an acquirer relaying BKM"],
  ["chase.ca", "an acquirer's merchant pages"],
  ["getnickel.com", "a payments vendor's blog"],
  ["nickel.com", "a payments vendor's blog"],
  ["merchantcostconsulting.com", "a cost-consulting firm"],
  ["opennwt.ca", "unofficial reading copies of NWT statutes"],
  ["plea.org", "public legal education summaries"],
  ["opendocket.ca", "bill tracker"],
  ["acts.co.za", "commercial copy of South African law"],
  ["africanlii.org", "copies of African legislation"],
  ["lawlibrary.org.za", "copies of South African legislation"],
  ["nevo.co.il", "commercial database of Israeli law"],
  ["oknesset.org", "copies of Knesset records"],
  ["lawinsider.com", "copies of contracts"],
  ["laws.sg", "copies of Singapore legislation"],
  ["digitalreview.id", "summaries of Indonesian regulations"],
  ["cylaw.org", "copies of Cypriot legislation"],
  ["sintact.ro", "commercial copy of Romanian law"],
  ["lege5.ro", "commercial copy of Romanian law"],
  ["legeaz.net", "copies of Romanian law"],
  ["conso.ro", "consumer news site"],
  ["vlex.com.pr", "copies of Puerto Rican law"],
  ["codexpr.ai", "copies of Puerto Rican law"],
  ["lexjuris.com", "copies of Puerto Rican law"],
  ["guamlexgraph.pages.dev", "copies of the Guam Code"],
  ["asbar.org", "the bar association's copy of American Samoa's code"],
  ["consumoteca.pe", "consumer news site"],
  ["courtgpt.ai", "copies of statutes"],
  ["onecle.com", "copies of statutes"],
  ["laws.com", "copies of statutes"],
  ["laws-info.com", "copies of statutes"],
  ["laws9.com", "copies of statutes"],
  ["uslawyerdatabase.com", "copies of statutes"],
  ["global-regulation.com", "copies of regulations"],
  ["reggi.ai", "copies of regulations"],
  ["unicourt.github.io", "copies of statutes"],
  ["gavvy.com", "copies of statutes"],
  ["nhliberty.org", "bill tracker"],
  ["keepinglawsimple.org", "bill summaries"],
  ["legiequity.us", "bill tracker"],
  ["dailyclout.io", "bill tracker"],
  ["upriseri.com", "news site"],
  ["einpresswire.com", "press-release relay"],
  ["pubt.io", "press-release relay"],
  ["getflexpoint.com", "a payments vendor's blog"]
]

const matches = (list: ReadonlyArray<readonly [string, string]>, url: string) => {
  const host = hostOf(url)
  return list.find(([entry]) => host === entry || host.endsWith(`.${entry}`))
}

/** The listed host a URL is on, if any, with why it is listed. */
export const noAuthorityHost = (url: string) => matches(noAuthority, url)
export const secondaryOnlyHost = (url: string) => matches(secondaryOnly, url)

/** The URL's host, lower-cased, without a trailing dot. */
export const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, "")
  } catch {
    return ""
  }
}
