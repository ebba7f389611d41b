/**
 * Credentials as the configuration handles them: checked against each processor's definition,
 * masked so they cannot be used, scrubbed from a processor's message.
 */
import { ProcessorConfig } from "@levy/api"
import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Credentials from "../src/processorConfigs/Credentials.js"
import * as Definitions from "../src/processors/Definitions.js"

const stripe = Definitions.find("stripe")!
const adyen = Definitions.find("adyen")!

describe("Credentials", () => {
  it("masks to the prefix and, for long values, the last four characters", () => {
    expect(Credentials.mask("sk_live_51HxAbCdEfGh4242")).toBe("sk_live_…4242")
    expect(Credentials.mask("rk_test_51HxAbCdEfGh1234")).toBe("rk_test_…1234")
    expect(Credentials.mask("whsec_0123456789abcdefwxyz")).toBe("whsec_…wxyz")
    expect(Credentials.mask("AQEyhmfxK4zJbBZDw7lZAbCd")).toBe("…AbCd")
    expect(Credentials.mask("ShopECOM")).toBe("…")
  })

  it("a mask never holds more than four characters of the secret part", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), (value) => {
        const masked = Credentials.mask(value)
        const [prefix = "", tail = ""] = masked.split("…")
        expect(value.startsWith(prefix)).toBe(true)
        expect(tail.length).toBeLessThanOrEqual(4)
        if (value.length - prefix.length < 12) expect(tail).toBe("")
      })
    )
  })

  it("scrubs every credential from a message", () => {
    const credentials = { apiKey: "AQEyhmfxK4zJbBZDw7lZAbCd", merchantAccount: "ShopECOM" }
    expect(
      Credentials.scrub("Key AQEyhmfxK4zJbBZDw7lZAbCd is not allowed on ShopECOM", credentials)
    ).toBe("Key …AbCd is not allowed on …")
  })

  it("checks required and unknown fields against the definition", () => {
    expect(Credentials.check(stripe, { secretKey: "sk_test_x", webhookSecret: "w" })).toEqual(
      Either.right({ secretKey: "sk_test_x", webhookSecret: "w" })
    )
    expect(Credentials.check(adyen, { apiKey: "k", hmacKey: "h" })).toMatchObject(
      Either.left({ code: "parameter_missing", param: "credentials[merchantAccount]" })
    )
    const unknown = Credentials.check(stripe, { secretKey: "s", webhookSecret: "w", x: "y" })
    expect(unknown).toMatchObject(
      Either.left({ code: "parameter_unknown", param: "credentials[x]" })
    )
    // Optional fields may be left out.
    expect(
      Either.isRight(Credentials.check(adyen, { apiKey: "k", merchantAccount: "m", hmacKey: "h" }))
    ).toBe(true)
    expect(Credentials.definitionOf("paypal")).toMatchObject(
      Either.left({ param: "processor", message: expect.stringContaining("stripe, adyen") })
    )
  })
})

describe("the processors' credential fields", () => {
  it("the API's list (dashboard forms) names exactly each definition's fields, required alike", () => {
    expect(Object.keys(ProcessorConfig.CREDENTIAL_FIELDS)).toEqual(Definitions.names)
    for (const definition of Definitions.all) {
      const listed =
        ProcessorConfig.CREDENTIAL_FIELDS[definition.name as ProcessorConfig.ProcessorName]
      expect(listed.map((f) => [f.name, f.required])).toEqual(
        definition.credentialFields.map((f) => [f.name, f.required])
      )
      expect(listed.filter((f) => f.signsNotifications).map((f) => [f.name, f.secret])).toEqual([
        [definition.webhookSecretField, true]
      ])
    }
    expect([...ProcessorConfig.PROCESSORS]).toEqual(Definitions.names)
  })
})
