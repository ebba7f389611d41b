/**
 * An `Authorization` header that is not `Bearer <key>`, said so: Basic auth (`curl -u`, as
 * Stripe's API takes it) or a bare key would otherwise be read as a wrong key ("Invalid API
 * key") and send the integrator hunting for a key that is right.
 */
import { ApiError } from "@levy/api"

const EXPECTED = "Send the key as `Authorization: Bearer <key>`"

/** Why `header` is not a bearer key, or undefined when it is one (or is absent). */
export const problemOf = (header: string | undefined): ApiError.AuthenticationError | undefined => {
  if (header === undefined || /^Bearer\s+\S+\s*$/i.test(header)) return undefined
  const [scheme = "", ...rest] = header.trim().split(/\s+/)
  if (/^Basic$/i.test(scheme)) {
    return new ApiError.AuthenticationError({
      message: `Basic authentication is not accepted. ${EXPECTED} (with curl: -H "Authorization: Bearer sk_dev_…", not -u).`
    })
  }
  if (/^(sk|pk)_/.test(scheme) && rest.length === 0) {
    return new ApiError.AuthenticationError({
      message: `The Authorization header holds a key without its scheme. ${EXPECTED}: add "Bearer " before it.`
    })
  }
  if (/^Bearer$/i.test(scheme)) {
    return new ApiError.AuthenticationError({
      message: `The Authorization header says Bearer but no key follows it. ${EXPECTED}.`
    })
  }
  return new ApiError.AuthenticationError({
    message: `The Authorization scheme '${scheme.slice(0, 20)}' is not accepted. ${EXPECTED}.`
  })
}
