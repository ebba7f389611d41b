/** A shopping cart: lines of integer prices in minor units, never floats. */

export interface Line {
  readonly sku: string
  /** Unit price, minor units (cents). */
  readonly unitPrice: number
  readonly quantity: number
}

export interface Cart {
  readonly currency: string
  readonly lines: ReadonlyArray<Line>
}

/** The cart's subtotal in minor units: integer products and sums only. */
export const subtotal = (cart: Cart): number =>
  cart.lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0)
