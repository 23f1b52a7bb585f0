// Prices of paid communities and forums (spec 000 §3, §5, §9): US cents a
// month, 0 to 9,999,900, typed by admins in dollars with cents. The
// community and forum forms read them the same way, and the subscribe
// dialog and the subscriptions page show them the same way.

export const PRICE_MAX_CENTS = 9_999_900
export const PRICE_DEFAULT_CENTS = 3995

/** dollars is a price in cents as the forms show it ("39.95"). */
export const dollars = (cents: number) => (cents / 100).toFixed(2)

/** priceCents reads a price in dollars (at most two decimals) as whole cents, or undefined. */
export function priceCents(s: string): number | undefined {
  const m = /^\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(s)
  if (!m) return undefined
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
  return cents <= PRICE_MAX_CENTS ? cents : undefined
}

/** formatPrice is a price in cents as a person reads it ("$39.95"). */
export const formatPrice = (cents: number, currency = 'USD') => new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100)

/** isPaid: a community or forum is paid when it is not free and costs something (the server's rule). */
export const isPaid = (p: { isFree: boolean; price: number }) => !p.isFree && p.price > 0
