import { createFileRoute, redirect } from '@tanstack/react-router'
import i18n from '@/i18n'
import { toast } from '@/components/ui/toast'
import { HOME_PATH } from '@/lib/redirect'
import { redeemAccessToken } from '@/features/auth/api/redeem-access-token'

// The token route (spec 000 §2.1). An access token here is a one-time grant
// of an organization's profile to the account of the address it was mailed
// to (see POST /api/tokens/{token}/redeem): a guest signs in first and
// comes back; a signed-in person has it redeemed and goes to /home, where
// the communities it brings are listed. A token that cannot be redeemed
// shows accessToken.invalid and goes to /home (the spec's "/events" is not
// a route of this app). eventName says what the link was sent for; the
// server does not need it.
export const Route = createFileRoute('/tokens/$accessToken/$eventName')({
  beforeLoad: async ({ context, location, params, preload }) => {
    if (!context.session.isAuthenticated) {
      throw redirect({ to: '/login', search: { token: params.accessToken, redirect: location.href }, replace: true })
    }
    if (preload) return
    try {
      await redeemAccessToken(params.accessToken)
    } catch {
      toast({ title: i18n.t('accessToken.invalid'), variant: 'destructive' })
    }
    throw redirect({ to: HOME_PATH, replace: true })
  },
})
