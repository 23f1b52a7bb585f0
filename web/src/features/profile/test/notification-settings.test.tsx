import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { applyPersonalizationEvent } from '@/lib/personalization'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { NotificationSettings } from '../components/notification-settings'
import { settingsOf } from '../lib/notification-settings'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const ME = '0190a000-0000-7000-8000-000000000021'
const KEY = 'BIj9zptlhUhFmvWI8LxGWBINMd8f1zUmSZjhCnqDA6YWJ-QJuXr5ApHFppnw8t0--cjr-Uaj-O_9PDxvKqHJ1cM'

type Sent = { method: string; path: string; body: unknown }

/** serve answers the personalization calls from stored, merging PATCHes as the server does. */
async function serve(stored: Record<string, unknown>, more?: (method: string, path: string, body: unknown) => Response | undefined) {
  const sent: Sent[] = []
  stubFetch(async (method, path, req) => {
    const body = method === 'GET' || method === 'HEAD' ? undefined : await req.clone().json().catch(() => undefined)
    sent.push({ method, path, body })
    const other = more?.(method, path, body)
    if (other) return other
    if (path === `/api/users/${ME}/personalization`) {
      if (method === 'PATCH') Object.assign(stored, body)
      return json(200, stored)
    }
    return json(404, { code: 'notFound', message: path })
  })
  return sent
}

const patches = (sent: Sent[]) => sent.filter((s) => s.method === 'PATCH').map((s) => s.body)

describe('settingsOf', () => {
  it('gives the server’s default to each absent or malformed key', () => {
    expect(settingsOf({ 'notifications.email.mentions': false, 'notifications.digest.hour': 25, 'notifications.digest.frequency': 'hourly' })).toEqual({
      'notifications.email.mentions': false,
      'notifications.push.mentions': true,
      'notifications.email.privateChats': true,
      'notifications.push.privateChats': true,
      'notifications.push.comments': true,
      'notifications.digest.frequency': 'daily',
      'notifications.insights.frequency': 'weekly',
      'notifications.digest.hour': 8,
      'notifications.digest.weekday': 1,
      'notifications.timezone': 'UTC',
    })
  })
})

describe('NotificationSettings', () => {
  it('shows the defaults for the keys never set, and no insights digest to one who administers no forum', async () => {
    await serve({})
    await renderInApp(<NotificationSettings userId={ME} forumAdmin={false} />)
    const mentions = await screen.findByRole('switch', { name: 'E-mail me when someone mentions me' })
    await waitFor(() => expect(mentions).toBeEnabled())
    for (const name of [
      'E-mail me when someone mentions me',
      'Notify this browser when someone mentions me',
      'E-mail me about private messages while I am away',
      'Notify this browser about private messages',
      'Notify this browser about comments and replies',
    ])
      expect(screen.getByRole('switch', { name })).toBeChecked()
    expect(screen.getByRole('combobox', { name: 'Digest of comments, replies and mentions' })).toHaveValue('daily')
    expect(screen.getByRole('combobox', { name: 'At' })).toHaveValue('8')
    expect(screen.queryByRole('combobox', { name: 'On' })).not.toBeInTheDocument()
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('UTC')
    expect(screen.queryByRole('combobox', { name: 'Insights digest of the forums you administer' })).not.toBeInTheDocument()
    // jsdom has no push: the browser part says so.
    expect(screen.getByText('This browser cannot show notifications.')).toBeInTheDocument()
  })

  it('shows the stored settings, the insights digest to a forum admin, and saves each change as it is made', async () => {
    const sent = await serve({
      'notifications.email.mentions': false,
      'notifications.digest.frequency': 'weekly',
      'notifications.digest.weekday': 3,
      'notifications.digest.hour': 18,
      'notifications.timezone': 'Europe/Paris',
      'conversations.c1.lastActivityOn': '2026-11-24T09:00:00.000Z',
    })
    await renderInApp(<NotificationSettings userId={ME} forumAdmin />)
    const mentions = await screen.findByRole('switch', { name: 'E-mail me when someone mentions me' })
    await waitFor(() => expect(mentions).not.toBeChecked())
    expect(screen.getByRole('combobox', { name: 'On' })).toHaveValue('3')
    expect(screen.getByRole('combobox', { name: 'At' })).toHaveValue('18')
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Paris')
    const insights = screen.getByRole('combobox', { name: 'Insights digest of the forums you administer' })
    expect(insights).toHaveValue('weekly')

    await userEvent.click(screen.getByRole('switch', { name: 'Notify this browser about comments and replies' }))
    await waitFor(() => expect(patches(sent)).toEqual([{ 'notifications.push.comments': false }]))
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Notify this browser about comments and replies' })).not.toBeChecked())

    await userEvent.selectOptions(insights, 'off')
    await waitFor(() => expect(patches(sent).at(-1)).toEqual({ 'notifications.insights.frequency': 'off' }))
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Digest of comments, replies and mentions' })).toBeEnabled())
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'At' }), '7')
    await waitFor(() => expect(patches(sent).at(-1)).toEqual({ 'notifications.digest.hour': 7 }))
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Digest of comments, replies and mentions' })).toBeEnabled())
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Digest of comments, replies and mentions' }), 'off')
    await waitFor(() => expect(patches(sent).at(-1)).toEqual({ 'notifications.digest.frequency': 'off' }))
    // With the digest off, its hour and weekday are gone.
    await waitFor(() => expect(screen.queryByRole('combobox', { name: 'At' })).not.toBeInTheDocument())
    expect(screen.queryByRole('combobox', { name: 'On' })).not.toBeInTheDocument()
  })

  it('shows the live value: a switch turned off elsewhere (an unsubscribe link, another tab) is off here', async () => {
    const stored: Record<string, unknown> = {}
    await serve(stored)
    const { queryClient } = await renderInApp(<NotificationSettings userId={ME} forumAdmin={false} />)
    const name = 'E-mail me when someone mentions me'
    const mentions = await screen.findByRole('switch', { name })
    await waitFor(() => expect(mentions).toBeEnabled())
    expect(mentions).toBeChecked()
    // The mail's unsubscribe link turns it off on the server, which tells
    // the member's tabs; the screen reads what is stored now.
    stored['notifications.email.mentions'] = false
    stored['notifications.digest.frequency'] = 'off'
    expect(
      applyPersonalizationEvent(queryClient, {
        type: 'api:messages:broadcast',
        contextKey: `user:${ME}`,
        event: 'user.personalization.updated',
        data: { payload: { userId: ME, keys: ['notifications.digest.frequency', 'notifications.email.mentions'] } },
      }),
    ).toBe(true)
    await waitFor(() => expect(screen.getByRole('switch', { name })).not.toBeChecked())
    expect(screen.getByRole('combobox', { name: 'Digest of comments, replies and mentions' })).toHaveValue('off')
  })

  it('turns browser notifications on: the permission, the worker, a subscription with the server’s key, kept by the server', async () => {
    const subscribe = vi.fn(async (o: { applicationServerKey: Uint8Array }) => ({
      endpoint: 'https://push.example/sub/1',
      options: o,
      toJSON: () => ({ endpoint: 'https://push.example/sub/1', keys: { p256dh: 'BPk', auth: 'AUTH' } }),
      unsubscribe: vi.fn(),
    }))
    const reg = { pushManager: { getSubscription: vi.fn(async () => null), subscribe } }
    const register = vi.fn(async () => reg)
    vi.stubGlobal('PushManager', function PushManager() {})
    vi.stubGlobal('Notification', Object.assign(function Notification() {}, { permission: 'default', requestPermission: vi.fn(async () => 'granted') }))
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { register, ready: Promise.resolve(reg), getRegistration: vi.fn(async () => undefined) },
    })
    try {
      const sent = await serve({}, (method, path) => {
        if (path === '/api/push/key') return json(200, { publicKey: KEY })
        if (method === 'POST' && path === '/api/push/subscriptions') return new Response(null, { status: 201 })
        return undefined
      })
      await renderInApp(<NotificationSettings userId={ME} forumAdmin={false} />)
      const section = await screen.findByTestId('notification-settings')
      expect(await within(section).findByRole('status')).toHaveTextContent('Browser notifications are off in this browser.')
      await userEvent.click(within(section).getByRole('button', { name: 'Turn on browser notifications' }))
      await waitFor(() => expect(within(section).getByRole('status')).toHaveTextContent('Browser notifications are on in this browser.'))
      expect(register).toHaveBeenCalledWith('/sw.js', { scope: '/' })
      const key = subscribe.mock.calls[0]![0].applicationServerKey
      expect(key.length).toBe(65)
      expect(key[0]).toBe(4)
      expect(sent.filter((s) => s.path.startsWith('/api/push/subscriptions'))).toEqual([
        { method: 'POST', path: '/api/push/subscriptions', body: { endpoint: 'https://push.example/sub/1', keys: { p256dh: 'BPk', auth: 'AUTH' } } },
      ])
      expect(within(section).getByRole('button', { name: 'Turn off browser notifications' })).toBeInTheDocument()
    } finally {
      delete (navigator as { serviceWorker?: unknown }).serviceWorker
    }
  })

  it('subscribes the browser afresh when the server keeps its endpoint for another account', async () => {
    const subs = [1, 2].map((n) => ({
      endpoint: `https://push.example/sub/${n}`,
      toJSON: () => ({ endpoint: `https://push.example/sub/${n}`, keys: { p256dh: `BP${n}`, auth: `AUTH${n}` } }),
      unsubscribe: vi.fn(async () => true),
    }))
    const subscribe = vi.fn(async (o: { applicationServerKey: Uint8Array }) => ({ ...subs[subscribe.mock.calls.length - 1]!, options: o }))
    const reg = { pushManager: { getSubscription: vi.fn(async () => null), subscribe } }
    vi.stubGlobal('PushManager', function PushManager() {})
    vi.stubGlobal('Notification', Object.assign(function Notification() {}, { permission: 'default', requestPermission: vi.fn(async () => 'granted') }))
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { register: vi.fn(async () => reg), ready: Promise.resolve(reg), getRegistration: vi.fn(async () => undefined) },
    })
    try {
      const sent = await serve({}, (method, path, body) => {
        if (path === '/api/push/key') return json(200, { publicKey: KEY })
        if (method === 'POST' && path === '/api/push/subscriptions')
          return (body as { endpoint: string }).endpoint.endsWith('/1')
            ? json(409, { code: 'pushEndpointTaken', message: 'taken' })
            : new Response(null, { status: 201 })
        return undefined
      })
      await renderInApp(<NotificationSettings userId={ME} forumAdmin={false} />)
      const section = await screen.findByTestId('notification-settings')
      await userEvent.click(await within(section).findByRole('button', { name: 'Turn on browser notifications' }))
      await waitFor(() => expect(within(section).getByRole('status')).toHaveTextContent('Browser notifications are on in this browser.'))
      expect(subs[0]!.unsubscribe).toHaveBeenCalled()
      expect(sent.filter((s) => s.path === '/api/push/subscriptions').map((s) => (s.body as { endpoint: string }).endpoint)).toEqual([
        'https://push.example/sub/1',
        'https://push.example/sub/2',
      ])
    } finally {
      delete (navigator as { serviceWorker?: unknown }).serviceWorker
    }
  })
})
