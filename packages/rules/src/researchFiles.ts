// Written by `npx -y pnpm@10 rules:index` from research/*.json. Do not edit by hand.
import r0 from "../research/AE.json" with { type: "json" }
import r1 from "../research/AR.json" with { type: "json" }
import r2 from "../research/AT.json" with { type: "json" }
import r3 from "../research/AU.json" with { type: "json" }
import r4 from "../research/BE.json" with { type: "json" }
import r5 from "../research/BG.json" with { type: "json" }
import r6 from "../research/BR.json" with { type: "json" }
import r7 from "../research/CA.json" with { type: "json" }
import r8 from "../research/CA-AB.json" with { type: "json" }
import r9 from "../research/CA-BC.json" with { type: "json" }
import r10 from "../research/CA-MB.json" with { type: "json" }
import r11 from "../research/CA-NB.json" with { type: "json" }
import r12 from "../research/CA-NETWORK-INTERAC.json" with { type: "json" }
import r13 from "../research/CA-NETWORK-VISA-MASTERCARD.json" with { type: "json" }
import r14 from "../research/CA-NL.json" with { type: "json" }
import r15 from "../research/CA-NS.json" with { type: "json" }
import r16 from "../research/CA-NT.json" with { type: "json" }
import r17 from "../research/CA-NU.json" with { type: "json" }
import r18 from "../research/CA-ON.json" with { type: "json" }
import r19 from "../research/CA-PE.json" with { type: "json" }
import r20 from "../research/CA-QC.json" with { type: "json" }
import r21 from "../research/CA-SK.json" with { type: "json" }
import r22 from "../research/CA-YT.json" with { type: "json" }
import r23 from "../research/CH.json" with { type: "json" }
import r24 from "../research/CL.json" with { type: "json" }
import r25 from "../research/CN.json" with { type: "json" }
import r26 from "../research/CO.json" with { type: "json" }
import r27 from "../research/CY.json" with { type: "json" }
import r28 from "../research/CZ.json" with { type: "json" }
import r29 from "../research/DE.json" with { type: "json" }
import r30 from "../research/DK.json" with { type: "json" }
import r31 from "../research/EE.json" with { type: "json" }
import r32 from "../research/ES.json" with { type: "json" }
import r33 from "../research/EU.json" with { type: "json" }
import r34 from "../research/FI.json" with { type: "json" }
import r35 from "../research/FR.json" with { type: "json" }
import r36 from "../research/GB.json" with { type: "json" }
import r37 from "../research/GR.json" with { type: "json" }
import r38 from "../research/HK.json" with { type: "json" }
import r39 from "../research/HR.json" with { type: "json" }
import r40 from "../research/HU.json" with { type: "json" }
import r41 from "../research/ID.json" with { type: "json" }
import r42 from "../research/IE.json" with { type: "json" }
import r43 from "../research/IL.json" with { type: "json" }
import r44 from "../research/IN.json" with { type: "json" }
import r45 from "../research/IS.json" with { type: "json" }
import r46 from "../research/IT.json" with { type: "json" }
import r47 from "../research/JP.json" with { type: "json" }
import r48 from "../research/KR.json" with { type: "json" }
import r49 from "../research/KW.json" with { type: "json" }
import r50 from "../research/LI.json" with { type: "json" }
import r51 from "../research/LT.json" with { type: "json" }
import r52 from "../research/LU.json" with { type: "json" }
import r53 from "../research/LV.json" with { type: "json" }
import r54 from "../research/MT.json" with { type: "json" }
import r55 from "../research/MX.json" with { type: "json" }
import r56 from "../research/MY.json" with { type: "json" }
import r57 from "../research/NG.json" with { type: "json" }
import r58 from "../research/NL.json" with { type: "json" }
import r59 from "../research/NO.json" with { type: "json" }
import r60 from "../research/NZ.json" with { type: "json" }
import r61 from "../research/PA.json" with { type: "json" }
import r62 from "../research/PE.json" with { type: "json" }
import r63 from "../research/PH.json" with { type: "json" }
import r64 from "../research/PL.json" with { type: "json" }
import r65 from "../research/PT.json" with { type: "json" }
import r66 from "../research/QA.json" with { type: "json" }
import r67 from "../research/RO.json" with { type: "json" }
import r68 from "../research/SA.json" with { type: "json" }
import r69 from "../research/SE.json" with { type: "json" }
import r70 from "../research/SG.json" with { type: "json" }
import r71 from "../research/SI.json" with { type: "json" }
import r72 from "../research/SK.json" with { type: "json" }
import r73 from "../research/TH.json" with { type: "json" }
import r74 from "../research/TR.json" with { type: "json" }
import r75 from "../research/TW.json" with { type: "json" }
import r76 from "../research/US.json" with { type: "json" }
import r77 from "../research/US-AK.json" with { type: "json" }
import r78 from "../research/US-AL.json" with { type: "json" }
import r79 from "../research/US-AR.json" with { type: "json" }
import r80 from "../research/US-AS.json" with { type: "json" }
import r81 from "../research/US-AZ.json" with { type: "json" }
import r82 from "../research/US-CA.json" with { type: "json" }
import r83 from "../research/US-CO.json" with { type: "json" }
import r84 from "../research/US-CONVENIENCE-FEE-VISA.json" with { type: "json" }
import r85 from "../research/US-CT.json" with { type: "json" }
import r86 from "../research/US-DC.json" with { type: "json" }
import r87 from "../research/US-DE.json" with { type: "json" }
import r88 from "../research/US-FL.json" with { type: "json" }
import r89 from "../research/US-GA.json" with { type: "json" }
import r90 from "../research/US-GU.json" with { type: "json" }
import r91 from "../research/US-HI.json" with { type: "json" }
import r92 from "../research/US-IA.json" with { type: "json" }
import r93 from "../research/US-ID.json" with { type: "json" }
import r94 from "../research/US-IL.json" with { type: "json" }
import r95 from "../research/US-IN.json" with { type: "json" }
import r96 from "../research/US-KS.json" with { type: "json" }
import r97 from "../research/US-KY.json" with { type: "json" }
import r98 from "../research/US-LA.json" with { type: "json" }
import r99 from "../research/US-MA.json" with { type: "json" }
import r100 from "../research/US-MD.json" with { type: "json" }
import r101 from "../research/US-ME.json" with { type: "json" }
import r102 from "../research/US-MI.json" with { type: "json" }
import r103 from "../research/US-MN.json" with { type: "json" }
import r104 from "../research/US-MO.json" with { type: "json" }
import r105 from "../research/US-MP.json" with { type: "json" }
import r106 from "../research/US-MS.json" with { type: "json" }
import r107 from "../research/US-MT.json" with { type: "json" }
import r108 from "../research/US-NC.json" with { type: "json" }
import r109 from "../research/US-ND.json" with { type: "json" }
import r110 from "../research/US-NE.json" with { type: "json" }
import r111 from "../research/US-NETWORK-AMEX.json" with { type: "json" }
import r112 from "../research/US-NETWORK-DISCOVER-AMEX.json" with { type: "json" }
import r113 from "../research/US-NETWORK-MASTERCARD.json" with { type: "json" }
import r114 from "../research/US-NETWORK-VISA.json" with { type: "json" }
import r115 from "../research/US-NH.json" with { type: "json" }
import r116 from "../research/US-NJ.json" with { type: "json" }
import r117 from "../research/US-NM.json" with { type: "json" }
import r118 from "../research/US-NV.json" with { type: "json" }
import r119 from "../research/US-NY.json" with { type: "json" }
import r120 from "../research/US-OH.json" with { type: "json" }
import r121 from "../research/US-OK.json" with { type: "json" }
import r122 from "../research/US-OR.json" with { type: "json" }
import r123 from "../research/US-PA.json" with { type: "json" }
import r124 from "../research/US-PR.json" with { type: "json" }
import r125 from "../research/US-RI.json" with { type: "json" }
import r126 from "../research/US-SC.json" with { type: "json" }
import r127 from "../research/US-SD.json" with { type: "json" }
import r128 from "../research/US-TN.json" with { type: "json" }
import r129 from "../research/US-TX.json" with { type: "json" }
import r130 from "../research/US-UT.json" with { type: "json" }
import r131 from "../research/US-VA.json" with { type: "json" }
import r132 from "../research/US-VI.json" with { type: "json" }
import r133 from "../research/US-VT.json" with { type: "json" }
import r134 from "../research/US-WA.json" with { type: "json" }
import r135 from "../research/US-WI.json" with { type: "json" }
import r136 from "../research/US-WV.json" with { type: "json" }
import r137 from "../research/US-WY.json" with { type: "json" }
import r138 from "../research/VN.json" with { type: "json" }
import r139 from "../research/ZA.json" with { type: "json" }

/** Every research record, as read from its file (decode before use). */
export const files: ReadonlyArray<{ readonly file: string; readonly json: unknown }> = [
  { file: "AE.json", json: r0 },
  { file: "AR.json", json: r1 },
  { file: "AT.json", json: r2 },
  { file: "AU.json", json: r3 },
  { file: "BE.json", json: r4 },
  { file: "BG.json", json: r5 },
  { file: "BR.json", json: r6 },
  { file: "CA.json", json: r7 },
  { file: "CA-AB.json", json: r8 },
  { file: "CA-BC.json", json: r9 },
  { file: "CA-MB.json", json: r10 },
  { file: "CA-NB.json", json: r11 },
  { file: "CA-NETWORK-INTERAC.json", json: r12 },
  { file: "CA-NETWORK-VISA-MASTERCARD.json", json: r13 },
  { file: "CA-NL.json", json: r14 },
  { file: "CA-NS.json", json: r15 },
  { file: "CA-NT.json", json: r16 },
  { file: "CA-NU.json", json: r17 },
  { file: "CA-ON.json", json: r18 },
  { file: "CA-PE.json", json: r19 },
  { file: "CA-QC.json", json: r20 },
  { file: "CA-SK.json", json: r21 },
  { file: "CA-YT.json", json: r22 },
  { file: "CH.json", json: r23 },
  { file: "CL.json", json: r24 },
  { file: "CN.json", json: r25 },
  { file: "CO.json", json: r26 },
  { file: "CY.json", json: r27 },
  { file: "CZ.json", json: r28 },
  { file: "DE.json", json: r29 },
  { file: "DK.json", json: r30 },
  { file: "EE.json", json: r31 },
  { file: "ES.json", json: r32 },
  { file: "EU.json", json: r33 },
  { file: "FI.json", json: r34 },
  { file: "FR.json", json: r35 },
  { file: "GB.json", json: r36 },
  { file: "GR.json", json: r37 },
  { file: "HK.json", json: r38 },
  { file: "HR.json", json: r39 },
  { file: "HU.json", json: r40 },
  { file: "ID.json", json: r41 },
  { file: "IE.json", json: r42 },
  { file: "IL.json", json: r43 },
  { file: "IN.json", json: r44 },
  { file: "IS.json", json: r45 },
  { file: "IT.json", json: r46 },
  { file: "JP.json", json: r47 },
  { file: "KR.json", json: r48 },
  { file: "KW.json", json: r49 },
  { file: "LI.json", json: r50 },
  { file: "LT.json", json: r51 },
  { file: "LU.json", json: r52 },
  { file: "LV.json", json: r53 },
  { file: "MT.json", json: r54 },
  { file: "MX.json", json: r55 },
  { file: "MY.json", json: r56 },
  { file: "NG.json", json: r57 },
  { file: "NL.json", json: r58 },
  { file: "NO.json", json: r59 },
  { file: "NZ.json", json: r60 },
  { file: "PA.json", json: r61 },
  { file: "PE.json", json: r62 },
  { file: "PH.json", json: r63 },
  { file: "PL.json", json: r64 },
  { file: "PT.json", json: r65 },
  { file: "QA.json", json: r66 },
  { file: "RO.json", json: r67 },
  { file: "SA.json", json: r68 },
  { file: "SE.json", json: r69 },
  { file: "SG.json", json: r70 },
  { file: "SI.json", json: r71 },
  { file: "SK.json", json: r72 },
  { file: "TH.json", json: r73 },
  { file: "TR.json", json: r74 },
  { file: "TW.json", json: r75 },
  { file: "US.json", json: r76 },
  { file: "US-AK.json", json: r77 },
  { file: "US-AL.json", json: r78 },
  { file: "US-AR.json", json: r79 },
  { file: "US-AS.json", json: r80 },
  { file: "US-AZ.json", json: r81 },
  { file: "US-CA.json", json: r82 },
  { file: "US-CO.json", json: r83 },
  { file: "US-CONVENIENCE-FEE-VISA.json", json: r84 },
  { file: "US-CT.json", json: r85 },
  { file: "US-DC.json", json: r86 },
  { file: "US-DE.json", json: r87 },
  { file: "US-FL.json", json: r88 },
  { file: "US-GA.json", json: r89 },
  { file: "US-GU.json", json: r90 },
  { file: "US-HI.json", json: r91 },
  { file: "US-IA.json", json: r92 },
  { file: "US-ID.json", json: r93 },
  { file: "US-IL.json", json: r94 },
  { file: "US-IN.json", json: r95 },
  { file: "US-KS.json", json: r96 },
  { file: "US-KY.json", json: r97 },
  { file: "US-LA.json", json: r98 },
  { file: "US-MA.json", json: r99 },
  { file: "US-MD.json", json: r100 },
  { file: "US-ME.json", json: r101 },
  { file: "US-MI.json", json: r102 },
  { file: "US-MN.json", json: r103 },
  { file: "US-MO.json", json: r104 },
  { file: "US-MP.json", json: r105 },
  { file: "US-MS.json", json: r106 },
  { file: "US-MT.json", json: r107 },
  { file: "US-NC.json", json: r108 },
  { file: "US-ND.json", json: r109 },
  { file: "US-NE.json", json: r110 },
  { file: "US-NETWORK-AMEX.json", json: r111 },
  { file: "US-NETWORK-DISCOVER-AMEX.json", json: r112 },
  { file: "US-NETWORK-MASTERCARD.json", json: r113 },
  { file: "US-NETWORK-VISA.json", json: r114 },
  { file: "US-NH.json", json: r115 },
  { file: "US-NJ.json", json: r116 },
  { file: "US-NM.json", json: r117 },
  { file: "US-NV.json", json: r118 },
  { file: "US-NY.json", json: r119 },
  { file: "US-OH.json", json: r120 },
  { file: "US-OK.json", json: r121 },
  { file: "US-OR.json", json: r122 },
  { file: "US-PA.json", json: r123 },
  { file: "US-PR.json", json: r124 },
  { file: "US-RI.json", json: r125 },
  { file: "US-SC.json", json: r126 },
  { file: "US-SD.json", json: r127 },
  { file: "US-TN.json", json: r128 },
  { file: "US-TX.json", json: r129 },
  { file: "US-UT.json", json: r130 },
  { file: "US-VA.json", json: r131 },
  { file: "US-VI.json", json: r132 },
  { file: "US-VT.json", json: r133 },
  { file: "US-WA.json", json: r134 },
  { file: "US-WI.json", json: r135 },
  { file: "US-WV.json", json: r136 },
  { file: "US-WY.json", json: r137 },
  { file: "VN.json", json: r138 },
  { file: "ZA.json", json: r139 }
]
