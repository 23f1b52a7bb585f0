import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { CreditCard } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { useMyCommunities, type MyCommunity } from '@/features/communities/api/get-my-communities'
import { useSubscriptions } from '@/features/subscriptions/api/list-subscriptions'

/**
 * showSubscriptions: the Subscriptions entry shows to a member who has
 * subscriptions, or who could have one (a community or forum of theirs they
 * have no access to, which they pay for). Everyone else, admins and
 * complimentary members among them, never pays, and is not shown an entry
 * that would say nothing to them.
 */
export function showSubscriptions(total: number | undefined, communities: MyCommunity[] | undefined) {
  return (total ?? 0) > 0 || !!communities?.some((c) => !c.isSubscribed || c.series.some((f) => !f.isSubscribed))
}

/** useShowSubscriptions: whether the member is shown the Subscriptions entry (showSubscriptions). */
export function useShowSubscriptions() {
  const subscriptions = useSubscriptions()
  const communities = useMyCommunities()
  return showSubscriptions(subscriptions.data?.total, communities.data?.results)
}

/** SubscriptionsLink is the top bar's Subscriptions entry, next to Home (spec 000 §2.1). */
export function SubscriptionsLink() {
  const { t } = useTranslation()
  const shown = useShowSubscriptions()
  if (!shown) return null
  return (
    <Button asChild variant="ghost" size="sm">
      <Link to="/subscriptions" activeProps={{ 'aria-current': 'page', className: 'bg-accent text-accent-foreground' }} data-testid="subscriptions-link">
        <CreditCard aria-hidden />
        <span className="sr-only sm:not-sr-only">{t('subscriptions.nav')}</span>
      </Link>
    </Button>
  )
}
