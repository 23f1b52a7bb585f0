import type { CheckoutReturn } from '../components/subscribe-flow'

/** CheckoutSearch is what checkout's return adds to a product's page (`session_id` is Stripe's, unused by the page). */
export type CheckoutSearch = { checkout?: CheckoutReturn; session_id?: string }

/** checkoutSearch validates a product page's search: anything else is dropped. */
export const checkoutSearch = (s: Record<string, unknown>): CheckoutSearch => ({
  checkout: s.checkout === 'success' || s.checkout === 'canceled' ? s.checkout : undefined,
  session_id: typeof s.session_id === 'string' ? s.session_id : undefined,
})
