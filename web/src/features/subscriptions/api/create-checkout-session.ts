import { useMutation } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type CheckoutSession = Schemas['CheckoutSession']

/**
 * createCheckoutSession asks for a Stripe Checkout Session for the paid
 * community or forum productId. For a forum whose paid community the member
 * has not paid for either, the server makes one session of two items (the
 * community first), so the client asks for the forum alone, not for both in
 * parallel as the spec's client does (the README's Payments section says why).
 */
export async function createCheckoutSession(productId: string) {
  return unwrap(await api.POST('/api/checkout-sessions', { body: { productId } }))
}

/** useCreateCheckoutSession: the dialog shows its failures itself (spec 000 §8). */
export const useCreateCheckoutSession = () => useMutation({ mutationFn: createCheckoutSession, meta: { silent: true } })
