import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import type { Schemas } from '@/api/client'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { SubscriptionsPage } from './subscriptions-page'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
const C = '00000000-0000-4000-8000-0000000000c1'
const F = '00000000-0000-4000-8000-0000000000f1'

const sub = (o: Partial<Schemas['Subscription']> = {}): Schemas['Subscription'] => ({
  id: 'sub_1',
  productId: F,
  kind: 'forum',
  name: 'Design Forum',
  communityId: C,
  status: 'active',
  hasAccess: true,
  currentPeriodEnd: '2031-03-05T12:00:00.000Z',
  cancelAtPeriodEnd: false,
  price: 1500,
  currency: 'USD',
  createdOn: '2031-02-05T12:00:00.000Z',
  ...o,
})

let assign: ReturnType<typeof vi.fn>
beforeEach(() => {
  assign = vi.fn()
  vi.stubGlobal('location', { ...window.location, assign })
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function server(results: Schemas['Subscription'][], portal: () => Response = () => json(201, { url: 'https://billing.stripe.test/p/session' })) {
  return stubFetch((method, path) => {
    if (method === 'GET' && path === '/api/subscriptions') return json(200, { results, total: results.length })
    if (method === 'POST' && path === '/api/billing-portal-sessions') return portal()
    return json(404, { code: 'notFound', message: path })
  })
}

describe('SubscriptionsPage (spec 000 §2.1)', () => {
  it('lists each subscription with its kind, status in words, price a month and renewal or end date', async () => {
    server([
      sub(),
      sub({ id: 'sub_2', productId: C, kind: 'community', name: 'Builders', price: 2500, cancelAtPeriodEnd: true }),
      sub({ id: 'sub_3', productId: 'f2', name: 'Old Forum', status: 'canceled', hasAccess: false, currentPeriodEnd: '2020-01-02T12:00:00.000Z' }),
      sub({ id: 'sub_4', productId: 'f3', name: 'Late Forum', status: 'past_due', currentPeriodEnd: null }),
    ])
    await renderInApp(<SubscriptionsPage />, { path: '/subscriptions' })
    expect(screen.getByRole('heading', { name: 'Subscriptions', level: 1 })).toBeInTheDocument()
    const rows = await screen.findAllByTestId('subscription-row')
    expect(rows).toHaveLength(4)
    expect(rows[0]).toHaveTextContent('Design ForumForumActive$15.00 a month · Renews on March 5, 2031')
    expect(within(rows[0]!).getByRole('link', { name: 'Open Design Forum' })).toHaveAttribute('href', `/communities/${C}/series/${F}`)
    expect(rows[1]).toHaveTextContent('BuildersCommunityActive$25.00 a month · Access ends on March 5, 2031')
    expect(rows[1]).toHaveTextContent('Canceled: it will not renew, and access stays until the period ends.')
    expect(within(rows[1]!).getByRole('link', { name: 'Open Builders' })).toHaveAttribute('href', `/communities/${C}`)
    expect(rows[2]).toHaveTextContent('Old ForumForumCanceled$15.00 a month · Ended on January 2, 2020')
    expect(within(rows[2]!).queryByRole('link')).toBeNull()
    expect(rows[3]).toHaveTextContent('Payment failed: retrying')
    expect(rows[3]).toHaveTextContent('Renewal date not known yet')
  })

  it('says when there is nothing to list', async () => {
    server([])
    await renderInApp(<SubscriptionsPage />, { path: '/subscriptions' })
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('You have no subscriptions.')
  })

  it('opens billing (the customer portal)', async () => {
    const calls = server([sub()])
    await renderInApp(<SubscriptionsPage />, { path: '/subscriptions' })
    await userEvent.click(screen.getByRole('button', { name: 'Manage billing' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/session'))
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1)
  })

  it('disables billing with the reason when the member has no billing account', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    server([], () => json(409, { code: 'noBillingAccount', message: 'no' }))
    await renderInApp(<SubscriptionsPage />, { path: '/subscriptions' })
    await userEvent.click(screen.getByRole('button', { name: 'Manage billing' }))
    expect(await screen.findByTestId('billing-reason')).toHaveTextContent('Billing opens once you have subscribed to something.')
    expect(screen.getByRole('button', { name: 'Manage billing' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Manage billing' })).toHaveAccessibleDescription('Billing opens once you have subscribed to something.')
    expect(assign).not.toHaveBeenCalled()
  })

  it('offers a retry when the list cannot be read', async () => {
    stubFetch(() => json(403, { code: 'forbidden', message: 'x' }))
    await renderInApp(<SubscriptionsPage />, { path: '/subscriptions' })
    expect(await screen.findByText('Your subscriptions could not be loaded.')).toBeInTheDocument()
  })
})
