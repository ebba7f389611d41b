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
import r13 from "../research/EE.json" with { type: "json" }
import r14 from "../research/EU.json" with { type: "json" }
import r15 from "../research/FI.json" with { type: "json" }
import r16 from "../research/GB.json" with { type: "json" }
import r17 from "../research/GR.json" with { type: "json" }
import r18 from "../research/HK.json" with { type: "json" }
import r19 from "../research/HR.json" with { type: "json" }
import r20 from "../research/HU.json" with { type: "json" }
import r21 from "../research/ID.json" with { type: "json" }
import r22 from "../research/IL.json" with { type: "json" }
import r23 from "../research/IN.json" with { type: "json" }
import r24 from "../research/IS.json" with { type: "json" }
import r25 from "../research/JP.json" with { type: "json" }
import r26 from "../research/KR.json" with { type: "json" }
import r27 from "../research/KW.json" with { type: "json" }
import r28 from "../research/LI.json" with { type: "json" }
import r29 from "../research/LT.json" with { type: "json" }
import r30 from "../research/LU.json" with { type: "json" }
import r31 from "../research/LV.json" with { type: "json" }
import r32 from "../research/MT.json" with { type: "json" }
import r33 from "../research/MX.json" with { type: "json" }
import r34 from "../research/NG.json" with { type: "json" }
import r35 from "../research/NZ.json" with { type: "json" }
import r36 from "../research/PA.json" with { type: "json" }
import r37 from "../research/PE.json" with { type: "json" }
import r38 from "../research/PH.json" with { type: "json" }
import r39 from "../research/PL.json" with { type: "json" }
import r40 from "../research/PT.json" with { type: "json" }
import r41 from "../research/QA.json" with { type: "json" }
import r42 from "../research/RO.json" with { type: "json" }
import r43 from "../research/SA.json" with { type: "json" }
import r44 from "../research/SE.json" with { type: "json" }
import r45 from "../research/SG.json" with { type: "json" }
import r46 from "../research/SI.json" with { type: "json" }
import r47 from "../research/SK.json" with { type: "json" }
import r48 from "../research/TH.json" with { type: "json" }
import r49 from "../research/TR.json" with { type: "json" }
import r50 from "../research/TW.json" with { type: "json" }
import r51 from "../research/US-AS.json" with { type: "json" }
import r52 from "../research/US-CA.json" with { type: "json" }
import r53 from "../research/US-CO.json" with { type: "json" }
import r54 from "../research/US-CT.json" with { type: "json" }
import r55 from "../research/US-GU.json" with { type: "json" }
import r56 from "../research/US-IL.json" with { type: "json" }
import r57 from "../research/US-KS.json" with { type: "json" }
import r58 from "../research/US-MA.json" with { type: "json" }
import r59 from "../research/US-ME.json" with { type: "json" }
import r60 from "../research/US-MP.json" with { type: "json" }
import r61 from "../research/US-NY.json" with { type: "json" }
import r62 from "../research/US-OK.json" with { type: "json" }
import r63 from "../research/US-VI.json" with { type: "json" }
import r64 from "../research/VN.json" with { type: "json" }
import r65 from "../research/ZA.json" with { type: "json" }

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
  { file: "EE.json", json: r13 },
  { file: "EU.json", json: r14 },
  { file: "FI.json", json: r15 },
  { file: "GB.json", json: r16 },
  { file: "GR.json", json: r17 },
  { file: "HK.json", json: r18 },
  { file: "HR.json", json: r19 },
  { file: "HU.json", json: r20 },
  { file: "ID.json", json: r21 },
  { file: "IL.json", json: r22 },
  { file: "IN.json", json: r23 },
  { file: "IS.json", json: r24 },
  { file: "JP.json", json: r25 },
  { file: "KR.json", json: r26 },
  { file: "KW.json", json: r27 },
  { file: "LI.json", json: r28 },
  { file: "LT.json", json: r29 },
  { file: "LU.json", json: r30 },
  { file: "LV.json", json: r31 },
  { file: "MT.json", json: r32 },
  { file: "MX.json", json: r33 },
  { file: "NG.json", json: r34 },
  { file: "NZ.json", json: r35 },
  { file: "PA.json", json: r36 },
  { file: "PE.json", json: r37 },
  { file: "PH.json", json: r38 },
  { file: "PL.json", json: r39 },
  { file: "PT.json", json: r40 },
  { file: "QA.json", json: r41 },
  { file: "RO.json", json: r42 },
  { file: "SA.json", json: r43 },
  { file: "SE.json", json: r44 },
  { file: "SG.json", json: r45 },
  { file: "SI.json", json: r46 },
  { file: "SK.json", json: r47 },
  { file: "TH.json", json: r48 },
  { file: "TR.json", json: r49 },
  { file: "TW.json", json: r50 },
  { file: "US-AS.json", json: r51 },
  { file: "US-CA.json", json: r52 },
  { file: "US-CO.json", json: r53 },
  { file: "US-CT.json", json: r54 },
  { file: "US-GU.json", json: r55 },
  { file: "US-IL.json", json: r56 },
  { file: "US-KS.json", json: r57 },
  { file: "US-MA.json", json: r58 },
  { file: "US-ME.json", json: r59 },
  { file: "US-MP.json", json: r60 },
  { file: "US-NY.json", json: r61 },
  { file: "US-OK.json", json: r62 },
  { file: "US-VI.json", json: r63 },
  { file: "VN.json", json: r64 },
  { file: "ZA.json", json: r65 }
]
