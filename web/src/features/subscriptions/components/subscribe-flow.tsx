import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from '@tanstack/react-router'
import { BookOpen, Clock, GraduationCap, Loader2, PartyPopper, Sparkles, Users, Video } from 'lucide-react'
import { isApiError } from '@/api/client'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/components/ui/toast'
import { formatPrice, isPaid } from '@/lib/price'
import { useCreateCheckoutSession } from '../api/create-checkout-session'

/** A paid community or forum, as the page that offers it has read it. */
export type Product = { id: string; kind: 'community' | 'forum'; name: string; price: number; currency: string; isFree: boolean }

/** What checkout's return says (`?checkout=`): the product's page is opened again with it. */
export type CheckoutReturn = 'success' | 'canceled'

export type SubscribeFlowProps = {
  product: Product
  /** A forum's community, when the member's community list has it (with their access to it). */
  community?: Product & { isSubscribed: boolean }
  /** Whether the member has access to the product, as last read. */
  subscribed: boolean
  /** What the payment opens, for a community: its forums, in order, said before checkout. */
  opens?: { id: string; name: string }[]
  checkout?: CheckoutReturn
  /** recheck reads the product again (a fallback for a live event lost while the page was connecting). */
  recheck: () => unknown
  /** onCheckoutSeen drops `?checkout` from the address once the flow has used it. */
  onCheckoutSeen: () => void
  /** How long to wait for the payment's confirmation before saying it is late. */
  confirmWithin?: number
}

const FEATURES = [
  { key: 'peerLearning', icon: Users },
  { key: 'expertCoaching', icon: GraduationCap },
  { key: 'videoMeetUps', icon: Video },
  { key: 'exclusiveContent', icon: BookOpen },
  { key: 'socialFeatures', icon: Sparkles },
  { key: 'accessible', icon: Clock },
] as const

/** CONFIRM_WITHIN_MS bounds the wait for the payment's confirmation (Stripe's webhook usually comes within seconds). */
export const CONFIRM_WITHIN_MS = 60_000
/** The product is read again at these times of the wait, in case its live event was lost. */
const RECHECKS_MS = [2_000, 5_000, 10_000, 20_000, 40_000]

/**
 * SubscribeFlow is the subscribe flow of a paid forum or community for a
 * member without access (spec 000 §2.6, §4, §8; spec 001 §2):
 *
 * - the Join the Forum / Join the Community dialog, which cannot be
 *   dismissed (Later, Escape or the close button go to /home). JOIN NOW asks
 *   for a checkout session of the product and sends the browser to it; a
 *   failure is logged, said in the dialog, and the member may try again;
 * - back from checkout with `?checkout=success`, a "confirming your
 *   payment" dialog until the product is read with access: the shell's
 *   live hook (useSubscriptionsLive) refreshes the communities, forums,
 *   notifications and Meet Ups when user.subscription.created arrives, so
 *   the page opens without a reload. Access comes with Stripe's webhook,
 *   never with the redirect; after CONFIRM_WITHIN_MS the dialog says what
 *   to do;
 * - with `?checkout=canceled`, the dialog again, saying nothing was charged.
 */
export function SubscribeFlow({ product, community, subscribed, opens, checkout, recheck, onCheckoutSeen, confirmWithin = CONFIRM_WITHIN_MS }: SubscribeFlowProps) {
  const { t } = useTranslation()
  // What checkout said when the page opened; the address forgets it once used.
  const [returned] = useState(checkout)
  const seen = useRef(false)
  useEffect(() => {
    if (!subscribed || seen.current) return
    seen.current = true
    if (returned === 'success') toast({ title: t('subscriptions.confirming.welcome', { name: product.name }), variant: 'success' })
    if (returned) onCheckoutSeen()
  }, [subscribed, returned, product.name, onCheckoutSeen, t])
  if (subscribed) return null
  // A second checkout while the first one's confirmation is on its way
  // would be a second payment: the wait offers none.
  if (returned === 'success') return <Confirming product={product} recheck={recheck} within={confirmWithin} />
  return <JoinDialog product={product} community={community} opens={opens} canceled={returned === 'canceled'} recheck={recheck} />
}

function useLeave() {
  const navigate = useNavigate()
  return () => void navigate({ to: '/home', replace: true })
}

/** A dialog of the flow: it cannot be dismissed but by leaving for /home (spec 001 §2). */
function FlowDialog({ children, testId, busy }: { children: ReactNode; testId: string; busy?: boolean }) {
  const leave = useLeave()
  return (
    <Dialog open onOpenChange={(o) => !o && leave()}>
      <DialogContent
        className="max-h-[90dvh] overflow-y-auto sm:max-w-xl"
        onPointerDownOutside={(e) => e.preventDefault()}
        onInteractOutside={(e) => e.preventDefault()}
        aria-busy={busy || undefined}
        data-testid={testId}
      >
        {children}
      </DialogContent>
    </Dialog>
  )
}

/** itemsOf is what the member would pay for: the forum's community first when it is paid and not paid for, then the product. */
function itemsOf(product: Product, community?: SubscribeFlowProps['community']) {
  const items: Product[] = []
  if (product.kind === 'forum' && community && isPaid(community) && !community.isSubscribed) items.push(community)
  if (isPaid(product) || items.length === 0) items.push(product)
  return items
}

const checkoutErrors = ['alreadySubscribed', 'productFree', 'paymentsUnavailable', 'notFound', 'checkoutCreating'] as const

function JoinDialog({
  product,
  community,
  opens,
  canceled,
  recheck,
}: {
  product: Product
  community?: SubscribeFlowProps['community']
  opens?: SubscribeFlowProps['opens']
  canceled: boolean
  recheck: () => unknown
}) {
  const { t } = useTranslation()
  const leave = useLeave()
  const start = useCreateCheckoutSession()
  const [error, setError] = useState<string>()
  const forum = product.kind === 'forum'
  const items = itemsOf(product, community)
  const total = items.reduce((sum, i) => sum + (isPaid(i) ? i.price : 0), 0)
  const currency = product.currency
  const paidCommunity = forum && items.length > 1

  const join = () => {
    setError(undefined)
    start.mutate(product.id, {
      onSuccess: (session) => window.location.assign(session.url),
      onError: (e) => {
        // A failed checkout is logged and rejects the pending subscription (spec 000 §8).
        console.warn('checkout: the session could not be made', e)
        const code = isApiError(e) ? checkoutErrors.find((c) => c === e.code) : undefined
        setError(t(`subscriptions.join.errors.${code ?? 'generic'}`))
        // Access came meanwhile, or the product is free now: read it again, which closes the dialog.
        if (code === 'alreadySubscribed' || code === 'productFree') void recheck()
      },
    })
  }
  // Sent to checkout: the button stays busy until the page goes.
  const pending = start.isPending || start.isSuccess

  return (
    <FlowDialog testId="subscribe-prompt">
      <DialogHeader>
        <DialogTitle className="text-xl">{t(forum ? 'subscriptions.join.titleForum' : 'subscriptions.join.titleCommunity')}</DialogTitle>
        <DialogDescription>{t(forum ? 'subscriptions.join.descriptionForum' : 'subscriptions.join.descriptionCommunity', { name: product.name })}</DialogDescription>
      </DialogHeader>
      {canceled && (
        <p role="status" className="rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm" data-testid="checkout-canceled">
          {t('subscriptions.join.canceled')}
        </p>
      )}
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label={t('subscriptions.join.eligible')}>
        {FEATURES.map(({ key, icon: Icon }) => (
          <li key={key} className="flex flex-col items-center gap-2 rounded-md border p-3 text-center text-sm font-medium">
            <Icon aria-hidden className="size-6 text-primary" />
            {t(`subscriptions.join.features.${key}`)}
          </li>
        ))}
      </ul>
      <section className="grid gap-2 rounded-md bg-muted p-3 text-sm" aria-labelledby="subscribe-eligible">
        <p id="subscribe-eligible" className="flex items-center gap-2 font-semibold">
          <PartyPopper aria-hidden className="size-4" />
          {t('subscriptions.join.eligible')}
        </p>
        <ul className="grid gap-1" data-testid="subscribe-items">
          {items.map((i) => (
            <li key={i.id} className="flex items-baseline justify-between gap-3">
              <span className="font-medium">{i.kind === 'community' && forum ? t('subscriptions.join.itemCommunity', { name: i.name }) : i.name}</span>
              {isPaid(i) && <span className="shrink-0">{t('subscriptions.join.perMonth', { price: formatPrice(i.price, i.currency) })}</span>}
            </li>
          ))}
        </ul>
        {total > 0 && <p className="text-muted-foreground">{t('subscriptions.join.total', { price: formatPrice(total, currency) })}</p>}
        {opens && (
          <div className="grid gap-1">
            <p className="font-medium" id="subscribe-opens">
              {opens.length > 0 ? t('subscriptions.join.opens', { name: product.name }) : t('subscriptions.join.opensNone')}
            </p>
            {opens.length > 0 && (
              <ul className="list-disc pl-5" aria-labelledby="subscribe-opens" data-testid="subscribe-opens">
                {opens.map((f) => (
                  <li key={f.id}>{f.name}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {forum && (
          <p className="text-muted-foreground">
            {community
              ? t(paidCommunity ? 'subscriptions.join.partOfPaid' : 'subscriptions.join.partOf', { community: community.name })
              : t('subscriptions.join.partOfUnnamed')}
          </p>
        )}
        <p className="text-muted-foreground">
          {total > 0 ? t('subscriptions.join.complimentary', { value: formatPrice(total, currency) }) : t('subscriptions.join.complimentaryFree')}
        </p>
      </section>
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={leave}>
          {t('subscriptions.join.later')}
        </Button>
        <Button onClick={join} disabled={pending}>
          {pending && <Loader2 aria-hidden className="animate-spin" />}
          {pending ? t('subscriptions.join.opening') : t('subscriptions.join.joinNow')}
        </Button>
      </DialogFooter>
    </FlowDialog>
  )
}

function Confirming({ product, recheck, within }: { product: Product; recheck: () => unknown; within: number }) {
  const { t } = useTranslation()
  const leave = useLeave()
  const [late, setLate] = useState(false)
  const [round, setRound] = useState(0)
  const check = useRef(recheck)
  useEffect(() => {
    check.current = recheck
  })
  useEffect(() => {
    const timers = RECHECKS_MS.filter((ms) => ms < within).map((ms) => setTimeout(() => void check.current(), ms))
    timers.push(setTimeout(() => setLate(true), within))
    return () => timers.forEach(clearTimeout)
  }, [round, within])
  const again = () => {
    setLate(false)
    setRound((r) => r + 1)
    void recheck()
  }
  return (
    <FlowDialog testId="checkout-confirming" busy={!late}>
      <DialogHeader>
        <DialogTitle className="text-xl">{t('subscriptions.confirming.title')}</DialogTitle>
        <DialogDescription>{t(late ? 'subscriptions.confirming.late' : 'subscriptions.confirming.body', { name: product.name })}</DialogDescription>
      </DialogHeader>
      {!late && (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Loader2 aria-hidden className="size-4 animate-spin" />
          {t('subscriptions.confirming.waiting')}
        </p>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={leave}>
          {t('subscriptions.join.later')}
        </Button>
        {late && (
          <>
            <Button variant="outline" asChild>
              <Link to="/subscriptions">{t('subscriptions.confirming.mySubscriptions')}</Link>
            </Button>
            <Button onClick={again}>{t('subscriptions.confirming.checkAgain')}</Button>
          </>
        )}
      </DialogFooter>
    </FlowDialog>
  )
}
