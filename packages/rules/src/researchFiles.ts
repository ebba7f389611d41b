// Written by `npx -y pnpm@10 rules:index` from research/*.json. Do not edit by hand.
import r0 from "../research/AE.json" with { type: "json" }
import r1 from "../research/AR.json" with { type: "json" }
import r2 from "../research/AT.json" with { type: "json" }
import r3 from "../research/AU.json" with { type: "json" }
import r4 from "../research/BE.json" with { type: "json" }
import r5 from "../research/BG.json" with { type: "json" }
import r6 from "../research/BR.json" with { type: "json" }
import r7 from "../research/CH.json" with { type: "json" }
import r8 from "../research/CL.json" with { type: "json" }
import r9 from "../research/CN.json" with { type: "json" }
import r10 from "../research/CO.json" with { type: "json" }
import r11 from "../research/CY.json" with { type: "json" }
import r12 from "../research/CZ.json" with { type: "json" }
import r13 from "../research/DE.json" with { type: "json" }
import r14 from "../research/DK.json" with { type: "json" }
import r15 from "../research/EE.json" with { type: "json" }
import r16 from "../research/ES.json" with { type: "json" }
import r17 from "../research/EU.json" with { type: "json" }
import r18 from "../research/FI.json" with { type: "json" }
import r19 from "../research/FR.json" with { type: "json" }
import r20 from "../research/GB.json" with { type: "json" }
import r21 from "../research/GR.json" with { type: "json" }
import r22 from "../research/HK.json" with { type: "json" }
import r23 from "../research/HR.json" with { type: "json" }
import r24 from "../research/HU.json" with { type: "json" }
import r25 from "../research/ID.json" with { type: "json" }
import r26 from "../research/IE.json" with { type: "json" }
import r27 from "../research/IL.json" with { type: "json" }
import r28 from "../research/IN.json" with { type: "json" }
import r29 from "../research/IS.json" with { type: "json" }
import r30 from "../research/IT.json" with { type: "json" }
import r31 from "../research/JP.json" with { type: "json" }
import r32 from "../research/KR.json" with { type: "json" }
import r33 from "../research/KW.json" with { type: "json" }
import r34 from "../research/LI.json" with { type: "json" }
import r35 from "../research/LT.json" with { type: "json" }
import r36 from "../research/LU.json" with { type: "json" }
import r37 from "../research/LV.json" with { type: "json" }
import r38 from "../research/MT.json" with { type: "json" }
import r39 from "../research/MX.json" with { type: "json" }
import r40 from "../research/NG.json" with { type: "json" }
import r41 from "../research/NL.json" with { type: "json" }
import r42 from "../research/NO.json" with { type: "json" }
import r43 from "../research/NZ.json" with { type: "json" }
import r44 from "../research/PA.json" with { type: "json" }
import r45 from "../research/PE.json" with { type: "json" }
import r46 from "../research/PH.json" with { type: "json" }
import r47 from "../research/PL.json" with { type: "json" }
import r48 from "../research/PT.json" with { type: "json" }
import r49 from "../research/QA.json" with { type: "json" }
import r50 from "../research/RO.json" with { type: "json" }
import r51 from "../research/SA.json" with { type: "json" }
import r52 from "../research/SE.json" with { type: "json" }
import r53 from "../research/SG.json" with { type: "json" }
import r54 from "../research/SI.json" with { type: "json" }
import r55 from "../research/SK.json" with { type: "json" }
import r56 from "../research/TH.json" with { type: "json" }
import r57 from "../research/TR.json" with { type: "json" }
import r58 from "../research/TW.json" with { type: "json" }
import r59 from "../research/US-AS.json" with { type: "json" }
import r60 from "../research/US-CA.json" with { type: "json" }
import r61 from "../research/US-CO.json" with { type: "json" }
import r62 from "../research/US-CT.json" with { type: "json" }
import r63 from "../research/US-GU.json" with { type: "json" }
import r64 from "../research/US-IL.json" with { type: "json" }
import r65 from "../research/US-KS.json" with { type: "json" }
import r66 from "../research/US-MA.json" with { type: "json" }
import r67 from "../research/US-ME.json" with { type: "json" }
import r68 from "../research/US-MP.json" with { type: "json" }
import r69 from "../research/US-NY.json" with { type: "json" }
import r70 from "../research/US-OK.json" with { type: "json" }
import r71 from "../research/US-VI.json" with { type: "json" }
import r72 from "../research/VN.json" with { type: "json" }
import r73 from "../research/ZA.json" with { type: "json" }

/** Every research record, as read from its file (decode before use). */
export const files: ReadonlyArray<{ readonly file: string; readonly json: unknown }> = [
  { file: "AE.json", json: r0 },
  { file: "AR.json", json: r1 },
  { file: "AT.json", json: r2 },
  { file: "AU.json", json: r3 },
  { file: "BE.json", json: r4 },
  { file: "BG.json", json: r5 },
  { file: "BR.json", json: r6 },
  { file: "CH.json", json: r7 },
  { file: "CL.json", json: r8 },
  { file: "CN.json", json: r9 },
  { file: "CO.json", json: r10 },
  { file: "CY.json", json: r11 },
  { file: "CZ.json", json: r12 },
  { file: "DE.json", json: r13 },
  { file: "DK.json", json: r14 },
  { file: "EE.json", json: r15 },
  { file: "ES.json", json: r16 },
  { file: "EU.json", json: r17 },
  { file: "FI.json", json: r18 },
  { file: "FR.json", json: r19 },
  { file: "GB.json", json: r20 },
  { file: "GR.json", json: r21 },
  { file: "HK.json", json: r22 },
  { file: "HR.json", json: r23 },
  { file: "HU.json", json: r24 },
  { file: "ID.json", json: r25 },
  { file: "IE.json", json: r26 },
  { file: "IL.json", json: r27 },
  { file: "IN.json", json: r28 },
  { file: "IS.json", json: r29 },
  { file: "IT.json", json: r30 },
  { file: "JP.json", json: r31 },
  { file: "KR.json", json: r32 },
  { file: "KW.json", json: r33 },
  { file: "LI.json", json: r34 },
  { file: "LT.json", json: r35 },
  { file: "LU.json", json: r36 },
  { file: "LV.json", json: r37 },
  { file: "MT.json", json: r38 },
  { file: "MX.json", json: r39 },
  { file: "NG.json", json: r40 },
  { file: "NL.json", json: r41 },
  { file: "NO.json", json: r42 },
  { file: "NZ.json", json: r43 },
  { file: "PA.json", json: r44 },
  { file: "PE.json", json: r45 },
  { file: "PH.json", json: r46 },
  { file: "PL.json", json: r47 },
  { file: "PT.json", json: r48 },
  { file: "QA.json", json: r49 },
  { file: "RO.json", json: r50 },
  { file: "SA.json", json: r51 },
  { file: "SE.json", json: r52 },
  { file: "SG.json", json: r53 },
  { file: "SI.json", json: r54 },
  { file: "SK.json", json: r55 },
  { file: "TH.json", json: r56 },
  { file: "TR.json", json: r57 },
  { file: "TW.json", json: r58 },
  { file: "US-AS.json", json: r59 },
  { file: "US-CA.json", json: r60 },
  { file: "US-CO.json", json: r61 },
  { file: "US-CT.json", json: r62 },
  { file: "US-GU.json", json: r63 },
  { file: "US-IL.json", json: r64 },
  { file: "US-KS.json", json: r65 },
  { file: "US-MA.json", json: r66 },
  { file: "US-ME.json", json: r67 },
  { file: "US-MP.json", json: r68 },
  { file: "US-NY.json", json: r69 },
  { file: "US-OK.json", json: r70 },
  { file: "US-VI.json", json: r71 },
  { file: "VN.json", json: r72 },
  { file: "ZA.json", json: r73 }
]
