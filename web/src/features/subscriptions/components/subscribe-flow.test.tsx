import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { useQuery } from '@tanstack/react-query'
import { clearToasts, Toaster } from '@/components/ui/toast'
import { closeHub } from '@/lib/hub'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { ME, signIn } from '@/test/factories'
import { useSubscriptionsLive } from '../hooks/use-subscriptions-live'
import { SubscribeFlow, type Product, type SubscribeFlowProps } from './subscribe-flow'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
const F = '00000000-0000-4000-8000-0000000000f1'
const C = '00000000-0000-4000-8000-0000000000c1'

const forum: Product = { id: F, kind: 'forum', name: 'Design Forum', price: 1500, currency: 'USD', isFree: false }
const community = (o: Partial<NonNullable<SubscribeFlowProps['community']>> = {}): NonNullable<SubscribeFlowProps['community']> => ({
  id: C,
  kind: 'community',
  name: 'Builders',
  price: 2500,
  currency: 'USD',
  isFree: false,
  isSubscribed: true,
  ...o,
})

let assign: ReturnType<typeof vi.fn>
beforeEach(() => {
  assign = vi.fn()
  vi.stubGlobal('location', { ...window.location, assign })
})
afterEach(() => {
  closeHub()
  clearToasts()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const render = (props: Partial<SubscribeFlowProps> = {}) =>
  renderInApp(
    <SubscribeFlow product={forum} community={community()} subscribed={false} recheck={() => {}} onCheckoutSeen={() => {}} {...props} />,
    { path: `/communities/${C}/series/${F}` },
  )

describe('the Join dialog (spec 000 §2.6, §8)', () => {
  it('shows the forum with its six features, its price and the notes; JOIN NOW posts the forum and goes to the checkout page', async () => {
    const calls = stubFetch((method, path) =>
      method === 'POST' && path === '/api/checkout-sessions'
        ? json(201, { id: 'cs_1', url: 'http://agora.test/api/dev/checkout/cs_1', items: [{ productId: F, kind: 'forum', name: 'Design Forum', price: 1500, currency: 'USD' }] })
        : json(404, { code: 'notFound', message: path }),
    )
    await render()
    const dialog = await screen.findByRole('dialog', { name: 'Join the Forum' })
    for (const f of ['Peer Learning', 'Expert Coaching', 'Video Meet Ups', 'Exclusive Content', 'Social Features', 'Accessible 24x7']) expect(dialog).toHaveTextContent(f)
    expect(dialog).toHaveTextContent('You are now eligible to subscribe to these forums')
    expect(within(dialog).getByTestId('subscribe-items')).toHaveTextContent('Design Forum$15.00 a month')
    expect(dialog).toHaveTextContent('This forum is part of the Builders community.')
    expect(dialog).toHaveTextContent('a $15.00 monthly value, are never asked to pay')
    await userEvent.click(within(dialog).getByRole('button', { name: 'JOIN NOW' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://agora.test/api/dev/checkout/cs_1'))
    expect(calls).toHaveLength(1)
    expect(await calls[0]!.clone().json()).toEqual({ productId: F })
    // Until the page goes, the button says it is on its way.
    expect(within(dialog).getByRole('button', { name: 'Opening checkout…' })).toBeDisabled()
  })

  it('lists the paid community first when the member pays for it with the forum, and still asks for the forum alone', async () => {
    const calls = stubFetch(() => json(201, { id: 'cs_2', url: '/api/dev/checkout/cs_2', items: [] }))
    await render({ community: community({ isSubscribed: false }) })
    const dialog = await screen.findByRole('dialog', { name: 'Join the Forum' })
    const items = within(within(dialog).getByTestId('subscribe-items')).getAllByRole('listitem')
    expect(items.map((i) => i.textContent)).toEqual(['Builders community$25.00 a month', 'Design Forum$15.00 a month'])
    expect(dialog).toHaveTextContent('$40.00 a month in all')
    expect(dialog).toHaveTextContent('which you join with it: one payment')
    await userEvent.click(within(dialog).getByRole('button', { name: 'JOIN NOW' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/dev/checkout/cs_2'))
    expect(calls).toHaveLength(1)
    expect(await calls[0]!.clone().json()).toEqual({ productId: F })
  })

  it('is Join the Community for a community', async () => {
    const calls = stubFetch(() => json(201, { id: 'cs_3', url: '/x', items: [] }))
    await render({ product: { ...community(), isSubscribed: undefined } as Product, community: undefined })
    const dialog = await screen.findByRole('dialog', { name: 'Join the Community' })
    expect(dialog).toHaveTextContent('Subscribe to take part in the Builders community and its forums.')
    expect(dialog).not.toHaveTextContent('This forum is part of')
    await userEvent.click(within(dialog).getByRole('button', { name: 'JOIN NOW' }))
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(await calls[0]!.clone().json()).toEqual({ productId: C })
  })

  it.each([
    [422, 'checkoutCreating', 'The payment provider could not start the checkout. Nothing was charged; please try again.'],
    [404, 'paymentsUnavailable', 'Payments are not available on this server.'],
    [404, 'notFound', 'This is no longer open to you.'],
    [500, 'internal', 'The checkout could not be started. Please try again.'],
  ])('says a %i %s, logs it, and lets the member try again', async (status, code, text) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    stubFetch(() => json(status, { code, message: 'no' }))
    await render()
    const dialog = await screen.findByRole('dialog', { name: 'Join the Forum' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'JOIN NOW' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(text)
    expect(warn).toHaveBeenCalledWith('checkout: the session could not be made', expect.anything())
    expect(assign).not.toHaveBeenCalled()
    expect(within(dialog).getByRole('button', { name: 'JOIN NOW' })).toBeEnabled()
  })

  it('reads the forum again when the member turns out to have access already', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    stubFetch(() => json(409, { code: 'alreadySubscribed', message: 'no' }))
    const recheck = vi.fn()
    await render({ recheck })
    await userEvent.click(await screen.findByRole('button', { name: 'JOIN NOW' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('You already have access')
    expect(recheck).toHaveBeenCalled()
  })

  it.each([
    ['Later', () => userEvent.click(screen.getByRole('button', { name: 'Later' }))],
    ['Escape', () => userEvent.keyboard('{Escape}')],
  ])('cannot be dismissed but by leaving for /home (%s)', async (_how, leave) => {
    stubFetch(() => json(404))
    const { router } = await render()
    await screen.findByRole('dialog', { name: 'Join the Forum' })
    await leave()
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'))
  })

  it('says a canceled checkout charged nothing, and offers JOIN NOW again', async () => {
    stubFetch(() => json(404))
    await render({ checkout: 'canceled' })
    const dialog = await screen.findByRole('dialog', { name: 'Join the Forum' })
    expect(within(dialog).getByTestId('checkout-canceled')).toHaveTextContent('Checkout was canceled: nothing was charged.')
    expect(within(dialog).getByRole('button', { name: 'JOIN NOW' })).toBeEnabled()
  })

  it('shows nothing to a member with access', async () => {
    stubFetch(() => json(404))
    await render({ subscribed: true })
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

// The live connection as the browser makes it (a ticket, then a
// WebSocket), with a socket the test speaks through.
let sockets: FakeSocket[] = []
class FakeSocket {
  onopen: ((ev: unknown) => void) | null = null
  onmessage: ((ev: { data: unknown }) => void) | null = null
  onclose: ((ev: { code: number }) => void) | null = null
  constructor(readonly url: string) {
    sockets.push(this)
  }
  send() {}
  close() {}
}

/**
 * ForumLike reads the forum as the forum page does and gives the flow what
 * the page gives it, with the shell's live hook beside it.
 */
function ForumLike({ onCheckoutSeen, confirmWithin }: { onCheckoutSeen: () => void; confirmWithin?: number }) {
  useSubscriptionsLive()
  const q = useQuery({
    queryKey: ['series', F],
    queryFn: async () => (await (await fetch(new Request(`http://agora.test/api/series/${F}`))).json()) as { isSubscribed: boolean },
    staleTime: 0,
  })
  if (!q.data) return null
  return (
    <>
      {q.data.isSubscribed && <p data-testid="posts">posts</p>}
      <SubscribeFlow
        product={forum}
        community={community()}
        subscribed={q.data.isSubscribed}
        checkout="success"
        recheck={() => void q.refetch()}
        onCheckoutSeen={onCheckoutSeen}
        confirmWithin={confirmWithin}
      />
      <Toaster />
    </>
  )
}

describe('back from checkout (spec 000 §4, §7)', () => {
  let paid: boolean
  beforeEach(() => {
    sockets = []
    paid = false
    vi.stubGlobal('WebSocket', FakeSocket)
    stubFetch((_m, path) => {
      if (path === '/api/hub/tickets') return json(201, { ticket: 'tk', expiresOn: '2030-01-01T00:00:00.000Z' })
      if (path === `/api/series/${F}`) return json(200, { id: F, isSubscribed: paid })
      return json(404, { code: 'notFound', message: path })
    })
  })

  async function open(props: { confirmWithin?: number } = {}) {
    const onCheckoutSeen = vi.fn()
    const r = await renderInApp(<ForumLike onCheckoutSeen={onCheckoutSeen} {...props} />, { path: `/communities/${C}/series/${F}?checkout=success` })
    signIn(r.session, {}, `t-${Math.random()}`)
    return { ...r, onCheckoutSeen }
  }

  it('confirms the payment until user.subscription.created comes, refreshes the caches, and opens the forum without a reload', async () => {
    const { queryClient: qc, onCheckoutSeen } = await open()
    const dialog = await screen.findByRole('dialog', { name: 'Confirming your payment' })
    expect(dialog).toHaveTextContent('Design Forum opens as soon as the payment provider confirms your payment')
    expect(within(dialog).queryByRole('button', { name: 'JOIN NOW' })).toBeNull()
    // What the member's other screens keep, which the event makes stale.
    for (const key of [['communities', 'mine'], ['community', C], ['notifications'], ['meetings', 'list', { seriesId: null }], ['subscriptions', 'mine']]) qc.setQueryData(key, { kept: true })

    await waitFor(() => expect(sockets).toHaveLength(1))
    const s = sockets[0]!
    paid = true
    act(() => {
      s.onopen?.({})
      // Another member's event, and another product's, change nothing.
      s.onmessage?.({ data: JSON.stringify({ type: 'api:messages:broadcast', contextKey: `user:${ME}`, event: 'user.mentioned', data: { payload: {} } }) })
    })
    expect(qc.getQueryState(['notifications'])?.isInvalidated).toBe(false)
    act(() =>
      s.onmessage?.({
        data: JSON.stringify({
          type: 'api:messages:broadcast',
          contextKey: `user:${ME}`,
          event: 'user.subscription.created',
          data: { payload: { userId: ME, productId: F, kind: 'forum', communityId: C, subscriptionId: 'sub_1' } },
        }),
      }),
    )
    expect(await screen.findByTestId('posts')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirming your payment' })).toBeNull())
    for (const key of [['communities', 'mine'], ['community', C], ['notifications'], ['meetings', 'list', { seriesId: null }], ['subscriptions', 'mine']])
      expect(qc.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(true)
    expect(await screen.findByText('Your payment is confirmed: welcome to Design Forum.')).toBeInTheDocument()
    expect(onCheckoutSeen).toHaveBeenCalledTimes(1)
  })

  it('says what to do when the confirmation is late, and checks again', async () => {
    const { onCheckoutSeen } = await open({ confirmWithin: 50 })
    const dialog = await screen.findByRole('dialog', { name: 'Confirming your payment' })
    expect(await within(dialog).findByText(/The confirmation has not arrived yet/)).toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'My subscriptions' })).toHaveAttribute('href', '/subscriptions')
    // No second checkout: that would be a second payment.
    expect(within(dialog).queryByRole('button', { name: 'JOIN NOW' })).toBeNull()
    paid = true
    await userEvent.click(within(dialog).getByRole('button', { name: 'Check again' }))
    expect(await screen.findByTestId('posts')).toBeInTheDocument()
    expect(onCheckoutSeen).toHaveBeenCalledTimes(1)
  })
})
