import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/**
 * createBillingPortalSession opens Stripe's customer portal for the member,
 * where they cancel a subscription or change their card; it returns to
 * /subscriptions. A member who never checked out has no billing account
 * (409 noBillingAccount).
 */
export async function createBillingPortalSession() {
  return unwrap(await api.POST('/api/billing-portal-sessions'))
}

/** useCreateBillingPortalSession: the page shows its failures itself. */
export const useCreateBillingPortalSession = () => useMutation({ mutationFn: createBillingPortalSession, meta: { silent: true } })
