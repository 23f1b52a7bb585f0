import { createFileRoute, redirect } from '@tanstack/react-router'
import i18n from '@/i18n'
import { toast } from '@/components/ui/toast'
import { HOME_PATH } from '@/lib/redirect'

// The token route (spec 000 §2.1): a guest signs in first and comes back
// here. A signed-in user would have the token redeemed and go to /home;
// the API has no endpoint to redeem access tokens yet, so every token is
// treated as invalid for now: accessToken.invalid, then /home (the spec's
// "/events" target is not a route of this app).
export const Route = createFileRoute('/tokens/$accessToken/$eventName')({
  beforeLoad: ({ context, location, params, preload }) => {
    if (!context.session.isAuthenticated) {
      throw redirect({ to: '/login', search: { token: params.accessToken, redirect: location.href }, replace: true })
    }
    if (!preload) toast({ title: i18n.t('accessToken.invalid'), variant: 'destructive' })
    throw redirect({ to: HOME_PATH, replace: true })
  },
})
