import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { CreditCard, Loader2, ReceiptText } from 'lucide-react'
import { isApiError } from '@/api/client'
import { PageGrid } from '@/components/layout/page-grid'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { formatPrice } from '@/lib/price'
import { useCreateBillingPortalSession } from '../api/create-billing-portal-session'
import { useSubscriptions, type Subscription } from '../api/list-subscriptions'

/** longDate is a day as a person reads it: "March 5, 2026". */
const longDate = (iso: string) => new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'long', day: 'numeric' })

/**
 * SubscriptionsPage is /subscriptions (spec 000 §2.1): the member's
 * subscriptions, one entry per community or forum (a forum paid with its
 * community is two entries of one payment), newest first, with their status
 * in words, the renewal or end date, the price a month and a note when
 * canceled at the period's end; and Manage billing, Stripe's customer
 * portal, where they cancel or change their card (it comes back here).
 */
export function SubscriptionsPage() {
  const { t } = useTranslation()
  const list = useSubscriptions()
  return (
    <PageGrid>
      <header className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t('subscriptions.page.title')}</h1>
          <p className="text-sm text-muted-foreground">{t('subscriptions.page.description')}</p>
        </div>
        <ManageBilling />
      </header>
      {list.isPending ? (
        <div className="grid gap-3" aria-busy="true" aria-label={t('subscriptions.page.loading')}>
          <Skeleton className="h-20 rounded-xl" />
          <Skeleton className="h-20 rounded-xl" />
        </div>
      ) : list.isError ? (
        <ErrorFallback message={t('subscriptions.page.failed')} onRetry={() => void list.refetch()} />
      ) : list.data.results.length === 0 ? (
        <EmptyState icon={<ReceiptText />}>{t('subscriptions.page.empty')}</EmptyState>
      ) : (
        <ul className="divide-y rounded-xl border bg-card" aria-label={t('subscriptions.page.list')} data-testid="subscriptions-list">
          {list.data.results.map((s) => (
            <SubscriptionRow key={`${s.id}-${s.productId}`} s={s} />
          ))}
        </ul>
      )}
    </PageGrid>
  )
}

/** dateLine says until when the subscription runs: its renewal, or the end of its access. */
function dateLine(s: Subscription, t: (k: string, o?: Record<string, unknown>) => string) {
  if (!s.currentPeriodEnd) return t('subscriptions.page.noDate')
  const date = longDate(s.currentPeriodEnd)
  if (s.status === 'canceled') return t(Date.parse(s.currentPeriodEnd) <= Date.now() ? 'subscriptions.page.ended' : 'subscriptions.page.ends', { date })
  return t(s.cancelAtPeriodEnd ? 'subscriptions.page.ends' : 'subscriptions.page.renews', { date })
}

function SubscriptionRow({ s }: { s: Subscription }) {
  const { t } = useTranslation()
  const good = s.hasAccess && (s.status === 'active' || s.status === 'trialing')
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-4" data-testid="subscription-row">
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="truncate font-medium">{s.name}</span>
          <Badge variant="outline">{t(s.kind === 'community' ? 'subscriptions.page.community' : 'subscriptions.page.forum')}</Badge>
          <Badge variant={good ? 'secondary' : s.hasAccess ? 'outline' : 'destructive'} data-testid="subscription-status">
            {t(`subscriptions.page.status.${s.status}`)}
          </Badge>
        </p>
        <p className="text-sm text-muted-foreground">
          {t('subscriptions.join.perMonth', { price: formatPrice(s.price, s.currency) })} · {dateLine(s, t)}
          {!s.hasAccess && s.status !== 'canceled' && <> · {t('subscriptions.page.noAccess')}</>}
        </p>
        {s.cancelAtPeriodEnd && s.status !== 'canceled' && <p className="text-sm">{t('subscriptions.page.cancelAtPeriodEnd')}</p>}
      </div>
      {s.hasAccess && (
        <Button asChild variant="outline" size="sm">
          {s.kind === 'community' ? (
            <Link to="/communities/$communityId" params={{ communityId: s.communityId }} aria-label={`${t('subscriptions.page.open')} ${s.name}`}>
              {t('subscriptions.page.open')}
            </Link>
          ) : (
            <Link
              to="/communities/$communityId/series/$seriesId"
              params={{ communityId: s.communityId, seriesId: s.productId }}
              aria-label={`${t('subscriptions.page.open')} ${s.name}`}
            >
              {t('subscriptions.page.open')}
            </Link>
          )}
        </Button>
      )}
    </li>
  )
}

/**
 * ManageBilling opens Stripe's customer portal. A member who never checked
 * out has no billing account there (409 noBillingAccount): the button is
 * then disabled with the reason, as it is where payments are not set up.
 */
function ManageBilling() {
  const { t } = useTranslation()
  const portal = useCreateBillingPortalSession()
  const [reason, setReason] = useState<string>()
  const [failed, setFailed] = useState(false)
  const open = () => {
    setFailed(false)
    portal.mutate(undefined, {
      onSuccess: (s) => window.location.assign(s.url),
      onError: (e) => {
        console.warn('billing: the portal could not be opened', e)
        if (isApiError(e) && e.code === 'noBillingAccount') setReason(t('subscriptions.page.noBillingAccount'))
        else if (isApiError(e) && e.code === 'paymentsUnavailable') setReason(t('subscriptions.page.paymentsUnavailable'))
        else setFailed(true)
      },
    })
  }
  const pending = portal.isPending || portal.isSuccess
  return (
    <div className="grid justify-items-end gap-1">
      <Button onClick={open} disabled={pending || !!reason} aria-describedby={reason ? 'billing-reason' : undefined}>
        {pending ? <Loader2 aria-hidden className="animate-spin" /> : <CreditCard aria-hidden />}
        {pending ? t('subscriptions.page.opening') : t('subscriptions.page.manage')}
      </Button>
      {reason && (
        <p id="billing-reason" className="text-sm text-muted-foreground" data-testid="billing-reason">
          {reason}
        </p>
      )}
      {failed && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {t('subscriptions.page.manageFailed')}
        </p>
      )}
    </div>
  )
}
