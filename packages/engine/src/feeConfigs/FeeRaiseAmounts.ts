/**
 * Whether one configuration charges more than another at some amount of one currency, under one
 * compliance restriction on each side (FeeRaise.ts), decided exactly over every amount.
 *
 * Why this works: on its accepted amounts a side's charged fee G(a) is made of monotone pieces.
 * The configured fee F = clamp(Y, minFee, maxFee), where Y, the raw fee plus the flat part, is
 * one "atom" (the percentage part rounded, or the gross-up total less the amount: both
 * non-decreasing, see docs/performance.md "Deciding a fee raise") plus a constant. Compliance
 * under `adjust` charges min(h(F), cap(a)) (h lowers a flat part over its cap; cap(a) is the
 * rate cap floored to the increment, another atom), or min(F, flat, flatCap, cap(a)) where
 * the fee must be flat, or 0 where no fee may be charged; under `reject` it charges F where F
 * is compliant and refuses the charge elsewhere (a refusal collects nothing: 0 here, which is
 * what "refused before, a fee after" and "refused after" need). Every branch switch but one is
 * a monotone function of the amount crossing a constant, so a branch that is the same at both
 * ends of an interval holds throughout it; the one that is not (an atom against the cap atom)
 * is kept as a symbolic min or select.
 *
 * An interval with one form per side is settled without enumerating when a proof exists: the
 * after side's value at its top is no more than the before side's at its bottom (monotone);
 * or every term of the before side's min is bounded pointwise by some term of the after side's
 * (identical atoms differ by a constant; percentage parts of the same increment are ordered by
 * rate and rounding mode, down ≤ half_even ≤ half_up ≤ up; else linear envelopes, each atom
 * within one increment of its real line). A point where the after side charges more is a
 * raise. What is left is split in two; an interval of a few points is enumerated, and one where
 * every atom is a percentage part of the same rate repeats every 2·10^6/gcd(rate, 10^6) points
 * (the rounding remainder cycles; twice for half_even's parity), so one period settles it. An
 * interval that no proof settles and that is too long to enumerate within the budget is
 * reported as "budget": FeeRaise.ts then holds the change (conservative, never a missed raise).
 */
import { Fee, Rate, type Rounding } from "@levy/core"

/** The part of a fee that moves with the amount. */
export type Atom =
  | {
      readonly kind: "rate"
      readonly ppm: number
      readonly mode: Rounding.RoundingMode
      readonly inc: number
    }
  | { readonly kind: "gross"; readonly ppm: number; readonly flat: number; readonly inc: number }

/** `atom(a) + k`, or the constant `k` when `atom` is undefined. */
export interface Term {
  readonly atom: Atom | undefined
  readonly k: number
}

/** What compliance does to a side's fee (the engine's restriction, read for one account). */
export type Limit =
  | { readonly kind: "free" }
  | { readonly kind: "none" }
  | {
      readonly kind: "capped"
      readonly flatOnly: boolean
      /** The rate cap floored to the increment; undefined for none. */
      readonly cap: Atom | undefined
      /** The flat cap in minor units; null for none. */
      readonly flatCap: number | null
    }

/** One configuration's charged fee in one currency under one restriction. */
export interface Side {
  /** Accepted amounts, on the increment: `lo > hi` when none is. */
  readonly lo: number
  readonly hi: number
  readonly inc: number
  /** The fee before its limits: raw part plus flat part. */
  readonly y: Term
  /** minFee and maxFee on the increment; -Infinity and Infinity for none. */
  readonly minFee: number
  readonly maxFee: number
  readonly flat: number
  readonly limit: Limit
  readonly reject: boolean
}

const RANK: Readonly<Record<Rounding.RoundingMode, number>> = {
  down: 0,
  half_even: 1,
  half_up: 2,
  up: 3
}

/** A percentage part as an atom: none for 0 %, and a whole 100 % is exact in every mode. */
export const rateTerm = (ppm: number, mode: Rounding.RoundingMode, inc: number, k = 0): Term =>
  ppm === 0
    ? { atom: undefined, k }
    : { atom: { kind: "rate", ppm, mode: ppm === Rate.PPM ? "down" : mode, inc }, k }

export const atomValue = (t: Atom, a: number): number =>
  t.kind === "rate"
    ? Fee.percentagePart(a, t.ppm, t.inc, t.mode)
    : Fee.grossUpTotal(a, t.flat, t.ppm, t.inc) - a

const termValue = (t: Term, a: number): number =>
  t.atom === undefined ? t.k : atomValue(t.atom, a) + t.k

const constant = (k: number): Term => ({ atom: undefined, k })
const shifted = (t: Term, by: number): Term => ({ atom: t.atom, k: t.k + by })

/** The configured fee (`Fee.quoteIn`'s limits): the fee within minFee and maxFee. */
export const configuredFee = (s: Side, a: number): number =>
  Math.min(Math.max(termValue(s.y, a), s.minFee), s.maxFee)

/**
 * A side at one amount: its charged fee, and the form that holds wherever `sig` is the same
 * (see the file's comment): G = min(terms), or, with `sel`, terms[0] where it is within
 * `sel` and 0 elsewhere.
 */
interface Form {
  readonly value: number
  readonly sig: number
  readonly terms: ReadonlyArray<Term>
  readonly sel: Atom | undefined
}

const ZERO: ReadonlyArray<Term> = [constant(0)]

const formAt = (s: Side, a: number): Form => {
  if (a < s.lo || a > s.hi) return { value: 0, sig: -1, terms: ZERO, sel: undefined }
  const yv = termValue(s.y, a)
  const clamp = s.maxFee < s.minFee ? 2 : yv < s.minFee ? 0 : yv > s.maxFee ? 2 : 1
  const f = Math.min(Math.max(yv, s.minFee), s.maxFee)
  const fTerm = clamp === 0 ? constant(s.minFee) : clamp === 2 ? constant(s.maxFee) : s.y
  const limit = s.limit
  if (limit.kind === "free") return { value: f, sig: clamp, terms: [fTerm], sel: undefined }
  if (limit.kind === "none") return { value: 0, sig: 0, terms: ZERO, sel: undefined }
  const flatCap = limit.flatCap ?? Number.POSITIVE_INFINITY
  if (s.reject) {
    const within = (!limit.flatOnly || f <= s.flat) && (s.flat <= flatCap || f <= flatCap) ? 0 : 50
    if (within !== 0) return { value: 0, sig: clamp * 100 + within, terms: ZERO, sel: undefined }
    if (limit.cap === undefined) {
      return { value: f, sig: clamp * 100, terms: [fTerm], sel: undefined }
    }
    const k = atomValue(limit.cap, a)
    const value = f <= k ? f : 0
    if (fTerm.atom !== undefined) {
      return { value, sig: clamp * 100 + 3, terms: [fTerm], sel: limit.cap }
    }
    return {
      value,
      sig: clamp * 100 + (f <= k ? 1 : 2),
      terms: [f <= k ? fTerm : constant(0)],
      sel: undefined
    }
  }
  // adjust: the fee lowered to the largest compliant one.
  let h: number
  let hTerm: Term
  let branch: number
  if (limit.flatOnly) {
    const c0 = Math.min(s.flat, flatCap)
    branch = f <= c0 ? 0 : 1
    h = Math.min(f, c0)
    hTerm = branch === 0 ? fTerm : constant(c0)
  } else if (s.flat <= flatCap || f <= flatCap) {
    branch = 0
    h = f
    hTerm = fTerm
  } else if (f < s.flat) {
    branch = 1
    h = flatCap
    hTerm = constant(flatCap)
  } else {
    branch = 2
    h = f - (s.flat - flatCap)
    hTerm = shifted(fTerm, flatCap - s.flat)
  }
  const sig = clamp * 100 + branch * 10
  if (limit.cap === undefined) return { value: h, sig, terms: [hTerm], sel: undefined }
  const k = atomValue(limit.cap, a)
  const capTerm: Term = { atom: limit.cap, k: 0 }
  if (hTerm.atom !== undefined) {
    return { value: Math.min(h, k), sig: sig + 3, terms: [hTerm, capTerm], sel: undefined }
  }
  return {
    value: Math.min(h, k),
    sig: sig + (k >= h ? 1 : 2),
    terms: [k >= h ? hTerm : capTerm],
    sel: undefined
  }
}

/** The charged fee of a side at `a` (0 where the charge is refused). */
export const chargedAt = (s: Side, a: number): number => formAt(s, a).value

/** The real line an atom stays near: `slope·a + [low, high]`. */
const envelope = (t: Term): readonly [number, number, number] => {
  const atom = t.atom
  if (atom === undefined) return [0, t.k, t.k]
  if (atom.kind === "gross") {
    const rest = Rate.PPM - atom.ppm
    const base = (atom.flat * Rate.PPM) / rest + t.k
    return [atom.ppm / rest, base - atom.inc, base + atom.inc]
  }
  const slope = atom.ppm / Rate.PPM
  const inc = atom.inc
  switch (atom.mode) {
    case "down":
      return [slope, t.k - inc, t.k]
    case "up":
      return [slope, t.k, t.k + inc]
    default:
      return [slope, t.k - inc / 2, t.k + inc / 2]
  }
}

const sameAtom = (x: Atom, y: Atom): boolean =>
  x.kind === "rate" && y.kind === "rate"
    ? x.ppm === y.ppm && x.mode === y.mode && x.inc === y.inc
    : x.kind === "gross" && y.kind === "gross"
      ? x.ppm === y.ppm && x.flat === y.flat && x.inc === y.inc
      : false

/**
 * Float slack for the envelopes, relative to the magnitudes compared: every true difference is a
 * whole number of increments, so a bound below one increment by more than the slack proves ≤ 0.
 */
const SLACK = 1e-6

/** Whether `s(a) ≤ t(a)` for every `a` in [x, y] can be shown without enumerating. */
const below = (s: Term, t: Term, x: number, y: number, inc: number): boolean => {
  const sa = s.atom
  const ta = t.atom
  if (sa !== undefined && ta !== undefined) {
    if (sameAtom(sa, ta)) return s.k <= t.k
    if (sa.kind === "rate" && ta.kind === "rate" && sa.inc === ta.inc) {
      // The same real line rounded two ways differs by at most one increment.
      if (sa.ppm === ta.ppm) return s.k + (RANK[sa.mode] > RANK[ta.mode] ? inc : 0) <= t.k
      if (sa.ppm < ta.ppm && RANK[sa.mode] <= RANK[ta.mode] && s.k <= t.k) return true
    }
  }
  // Both monotone: the most `s` reaches against the least `t` does.
  if (termValue(s, y) <= termValue(t, x)) return true
  const [ss, , sh] = envelope(s)
  const [ts, tl] = envelope(t)
  const gap = Math.max((ss - ts) * x + sh - tl, (ss - ts) * y + sh - tl)
  // Rounding error grows with the magnitudes added (a steep gross-up line over large amounts).
  const error = SLACK * (1 + 1e-6 * ((ss + ts) * y + Math.abs(sh) + Math.abs(tl)))
  return gap < inc - error
}

/** The one rate every atom of the forms is a percentage part of; undefined if a term is constant. */
const commonRate = (forms: ReadonlyArray<Form>): number | undefined => {
  let ppm: number | undefined
  for (const f of forms) {
    for (const atom of [...f.terms.map((t) => t.atom), ...(f.sel === undefined ? [] : [f.sel])]) {
      if (atom === undefined || atom.kind !== "rate") return undefined
      if (ppm !== undefined && atom.ppm !== ppm) return undefined
      ppm = atom.ppm
    }
  }
  return ppm
}

/**
 * A form with its symbolic min or select settled where a bound shows which side of the cap
 * the fee is on throughout [x, y].
 */
const resolved = (f: Form, x: number, y: number, inc: number): Form => {
  if (f.sel !== undefined) {
    const term = f.terms[0]!
    const cap: Term = { atom: f.sel, k: 0 }
    if (below(term, cap, x, y, inc)) return { ...f, terms: [term], sel: undefined }
    if (below(shifted(cap, inc), term, x, y, inc)) return { ...f, terms: ZERO, sel: undefined }
    return f
  }
  if (f.terms.length === 2) {
    const [h, k] = f.terms as readonly [Term, Term]
    if (below(h, k, x, y, inc)) return { ...f, terms: [h] }
    if (below(k, h, x, y, inc)) return { ...f, terms: [k] }
  }
  return f
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))

/** A period longer than this is solved for rather than enumerated, where it can be. */
const LONG_PERIOD = 100_000

/** `x⁻¹ mod m` for x coprime to m (extended Euclid). */
const inverse = (x: number, m: number): number => {
  let [r0, r1, s0, s1] = [m, x % m, 0, 1]
  while (r1 !== 0) {
    const q = Math.floor(r0 / r1)
    ;[r0, r1] = [r1, r0 - q * r1]
    ;[s0, s1] = [s1, s0 - q * s1]
  }
  return ((s0 % m) + m) % m
}

/**
 * Both forms a single percentage part of one rate, the after side's rounded by a higher mode
 * with the same constant: the one case a long period leaves, where the two differ by at most
 * one increment, and only at the remainders of `amount × rate` the modes round differently.
 */
const plainPair = (
  a: Form,
  b: Form
): readonly [Atom & { kind: "rate" }, Atom & { kind: "rate" }] | undefined => {
  if (a.sel !== undefined || b.sel !== undefined || a.terms.length !== 1 || b.terms.length !== 1) {
    return undefined
  }
  const [s, t] = [a.terms[0]!, b.terms[0]!]
  if (s.atom?.kind !== "rate" || t.atom?.kind !== "rate" || s.k !== t.k) return undefined
  return [s.atom, t.atom]
}

/**
 * Lattice indices from `start` on, within two base periods, at each remainder class where the
 * after side's mode rounds up and the before side's does not (`remainder = n·rate mod 10^6`;
 * a tie is half of 10^6, with the quotient's parity for half_even), if any: a plain pair of
 * higher mode raises there and nowhere else.
 */
const roundingWitnesses = (a: Form, b: Form, start: number): ReadonlyArray<number> => {
  const pair = plainPair(a, b)
  if (pair === undefined) return []
  const [up, down] = pair
  const ppm = up.ppm
  const g = gcd(ppm, Rate.PPM)
  const base = Rate.PPM / g
  const inv = inverse(ppm / g, base)
  // The first n ≥ start with n·ppm ≡ r (mod 10^6), for a remainder r that is a multiple of g.
  const at = (r: number) => start + (((((r / g) * inv - start) % base) + base) % base)
  const half = Rate.PPM / 2
  const firstAbove = (low: number) => Math.floor(low / g) * g + g
  const out: Array<number> = []
  const rounds = (mode: Rounding.RoundingMode, r: number, quotientOdd: boolean) =>
    r !== 0 &&
    (mode === "up" ||
      (mode === "half_up" && r >= half) ||
      (mode === "half_even" && (r > half || (r === half && quotientOdd))))
  // One remainder of each kind: just above 0, below the tie, the tie, above the tie.
  const candidates = [g, half - g, half, firstAbove(half)].filter(
    (r) => r > 0 && r < Rate.PPM && r % g === 0
  )
  for (const r of candidates) {
    for (const n of [at(r), at(r) + base]) {
      const odd = Math.floor((n * ppm) / Rate.PPM) % 2 === 1
      if (rounds(up.mode, r, odd) && !rounds(down.mode, r, odd)) out.push(n)
    }
  }
  return out
}

/** Intervals shorter than this are enumerated rather than split. */
const ENUMERATE = 64

/** What a search found: no raise, a raise at `amount`, or not settled within the budget. */
export type Found =
  | { readonly kind: "none" }
  | { readonly kind: "raise"; readonly amount: number }
  | { readonly kind: "budget" }

/** Evaluations left to a decision, shared by its searches. */
export interface Budget {
  left: number
}

/**
 * A resumable search for an amount where `after` charges more than `before`: `step` works until
 * `chunk` evaluations are spent and answers undefined while there is more to do.
 */
export class Search {
  private readonly stack: Array<readonly [number, number]> = []

  constructor(
    private readonly before: Side,
    private readonly after: Side
  ) {
    const inc = after.inc
    const { lo, hi } = after
    if (lo > hi) return
    // Split where the before side's acceptance changes: inside one part it is uniform.
    const cuts = [lo, before.lo, before.hi + inc, hi + inc]
      .filter((c) => c >= lo && c <= hi + inc)
      .sort((p, q) => p - q)
    for (let i = cuts.length - 2; i >= 0; i--) {
      if (cuts[i]! < cuts[i + 1]!) this.stack.push([cuts[i]!, cuts[i + 1]! - inc])
    }
  }

  step(budget: Budget, chunk: number): Found | undefined {
    const stop = budget.left - chunk
    while (this.stack.length > 0) {
      if (budget.left <= 0) return { kind: "budget" }
      if (budget.left <= stop) return undefined
      const [x, y] = this.stack.pop()!
      const found = this.interval(x, y, budget)
      if (found !== undefined) return found
    }
    return { kind: "none" }
  }

  private interval(x: number, y: number, budget: Budget): Found | undefined {
    const { before, after } = this
    const inc = after.inc
    budget.left -= 4
    const ax = formAt(after, x)
    const bx = formAt(before, x)
    if (ax.value > bx.value) return { kind: "raise", amount: x }
    if (x === y) return undefined
    const ay = formAt(after, y)
    const by = formAt(before, y)
    if (ay.value > by.value) return { kind: "raise", amount: y }
    const points = (y - x) / inc + 1
    if (ax.sig === ay.sig && bx.sig === by.sig) {
      const a = resolved(ax, x, y, inc)
      const b = resolved(bx, x, y, inc)
      if (this.settled(a, b, ay, x, y)) return undefined
      const ppm = commonRate([a, b])
      if (ppm !== undefined) {
        const period = (2 * Rate.PPM) / gcd(ppm, Rate.PPM)
        if (period < points) {
          if (period <= Math.min(budget.left, LONG_PERIOD)) {
            return this.enumerate(x, x + (period - 1) * inc, budget)
          }
          // Too long to enumerate: where the rounding modes differ, solved for.
          for (const n of roundingWitnesses(a, b, x / inc)) {
            budget.left -= 2
            if (chargedAt(after, n * inc) > chargedAt(before, n * inc)) {
              return { kind: "raise", amount: n * inc }
            }
          }
          if (plainPair(a, b) !== undefined) return undefined
          return { kind: "budget" }
        }
      }
    }
    if (points <= ENUMERATE) return this.enumerate(x + inc, y - inc, budget)
    const mid = x + Math.floor((points - 1) / 2) * inc
    this.stack.push([mid + inc, y], [x, mid])
    return undefined
  }

  /** Whether the forms prove the after side charges no more anywhere in [x, y]. */
  private settled(a: Form, b: Form, aTop: Form, x: number, y: number): boolean {
    if (a.sel === undefined && aTop.value <= 0) return true
    if (b.sel !== undefined) return false
    if (a.sel === undefined && aTop.value <= b.value) return true
    // G_after ≤ min(terms) ≤ each term; under a select, G_after is 0 or its term.
    const inc = this.after.inc
    return b.terms.every((t) => a.terms.some((s) => below(s, t, x, y, inc)))
  }

  private enumerate(x: number, y: number, budget: Budget): Found | undefined {
    const inc = this.after.inc
    for (let a = x; a <= y; a += inc) {
      budget.left -= 2
      if (chargedAt(this.after, a) > chargedAt(this.before, a)) return { kind: "raise", amount: a }
    }
    return undefined
  }
}
