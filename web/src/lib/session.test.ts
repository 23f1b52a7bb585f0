import { afterEach, describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { json, stubFetch } from '@/test/utils'
import { Session, type SignedOutEvent } from './session'

const user = { id: 'u1', email: 'member@demo.agora', firstName: 'Chris', lastName: 'M' }
const decoded = { user, role: 'user', sessionId: 's1', expiresOn: '2030-01-01T00:00:00.000Z' }

afterEach(() => vi.unstubAllGlobals())

describe('Session (spec 000 §4, 002 §4)', () => {
  it('is a guest without a stored token, and asks nothing', async () => {
    const calls = stubFetch(() => json(500))
    const s = new Session(new QueryClient())
    await s.boot()
    expect(s.get().status).toBe('guest')
    expect(calls).toHaveLength(0)
  })

  it('checks a stored token with GET /api/tokens/decode, sending it as a bearer', async () => {
    localStorage.setItem('user_token', 'tok')
    const calls = stubFetch(() => json(200, decoded))
    const s = new Session(new QueryClient())
    await s.boot()
    expect(s.get()).toMatchObject({ status: 'user', role: 'user', token: 'tok' })
    expect(calls[0]!.headers.get('Authorization')).toBe('Bearer tok')
    expect(new URL(calls[0]!.url).pathname).toBe('/api/tokens/decode')
  })

  it('drops a refused stored token, and what was read with it while it was checked', async () => {
    localStorage.setItem('user_token', 'old')
    stubFetch(() => json(401, { code: 'tokenExpired', message: 'expired' }))
    const qc = new QueryClient()
    const s = new Session(qc)
    expect(s.tokenPending).toBe(true)
    const booted = s.boot()
    // The page preloads meanwhile (App): what it read is not kept.
    qc.setQueryData(['forums', 'f1'], { id: 'f1' })
    await booted
    expect(s.get().status).toBe('guest')
    expect(s.tokenPending).toBe(false)
    expect(s.expiredAtBoot).toBe(true)
    expect(localStorage.getItem('user_token')).toBeNull()
    expect(qc.getQueryData(['forums', 'f1'])).toBeUndefined()
  })

  it('has no token pending without a stored one, nor once it is checked', async () => {
    expect(new Session(new QueryClient()).tokenPending).toBe(false)
    localStorage.setItem('user_token', 'tok')
    stubFetch(() => json(200, decoded))
    const s = new Session(new QueryClient())
    await s.boot()
    expect(s.tokenPending).toBe(false)
  })

  it('signs out on a 401 to any call made with its token, and clears the cache but not UI settings', async () => {
    localStorage.setItem('agora.theme', 'dark')
    const qc = new QueryClient()
    qc.setQueryData(['communities', 'mine'], { results: [] })
    const s = new Session(qc)
    const events: SignedOutEvent[] = []
    s.onSignedOut((e) => events.push(e))
    s.signedIn({ accessToken: 'tok', user: user as never, role: 'user' })
    stubFetch(() => json(401, { code: 'tokenInvalid', message: 'revoked' }))
    await api.GET('/api/communities', {})
    expect(events).toEqual([{ reason: 'expired' }])
    expect(s.get().status).toBe('guest')
    expect(localStorage.getItem('user_token')).toBeNull()
    expect(qc.getQueryData(['communities', 'mine'])).toBeUndefined()
    expect(localStorage.getItem('agora.theme')).toBe('dark')
  })

  it('ignores a 401 to a request without its token (a wrong password)', async () => {
    const s = new Session(new QueryClient())
    const events: SignedOutEvent[] = []
    s.onSignedOut((e) => events.push(e))
    s.signedIn({ accessToken: 'tok', user: user as never, role: 'user' })
    stubFetch(() => json(401, { code: 'loginAuthentication', message: 'no' }))
    await api.POST('/api/sessions', { body: { email: 'x@y.z', password: 'p' }, headers: { Authorization: '' } })
    expect(events).toEqual([])
    expect(s.get().status).toBe('user')
  })

  it('revokes the session on sign-out', async () => {
    const s = new Session(new QueryClient())
    const events: SignedOutEvent[] = []
    s.onSignedOut((e) => events.push(e))
    s.signedIn({ accessToken: 'tok', user: user as never, role: 'user' })
    const calls = stubFetch(() => new Response(null, { status: 204 }))
    await s.signOut()
    expect(calls[0]!.method).toBe('DELETE')
    expect(new URL(calls[0]!.url).pathname).toBe('/api/sessions/current')
    expect(events).toEqual([{ reason: 'signOut' }])
  })

  it('forgets this browser’s push subscription first on sign-out, and signs out even when that fails', async () => {
    const unsubscribe = vi.fn(async () => true)
    const sub = { endpoint: 'https://push.example/sub/9', unsubscribe }
    vi.stubGlobal('PushManager', function PushManager() {})
    vi.stubGlobal('Notification', function Notification() {})
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: vi.fn(async () => ({ pushManager: { getSubscription: async () => sub } })) },
    })
    try {
      for (const pushAnswer of [204, 500]) {
        const s = new Session(new QueryClient())
        const events: SignedOutEvent[] = []
        s.onSignedOut((e) => events.push(e))
        s.signedIn({ accessToken: 'tok', user: user as never, role: 'user' })
        const sent: { method: string; path: string; body: string; auth: string | null }[] = []
        stubFetch(async (method, path, req) => {
          sent.push({ method, path, body: await req.text(), auth: req.headers.get('Authorization') })
          return path === '/api/push/subscriptions' ? json(pushAnswer, pushAnswer === 204 ? undefined : { code: 'internal', message: 'x' }) : new Response(null, { status: 204 })
        })
        const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
        await s.signOut()
        warn.mockRestore()
        expect(sent.map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /api/push/subscriptions', 'DELETE /api/sessions/current'])
        expect(JSON.parse(sent[0]!.body)).toEqual({ endpoint: 'https://push.example/sub/9' })
        expect(sent[0]!.auth).toBe('Bearer tok')
        expect(events).toEqual([{ reason: 'signOut' }])
      }
      // The browser's subscription is dropped once the server has forgotten it.
      expect(unsubscribe).toHaveBeenCalledTimes(1)
    } finally {
      delete (navigator as { serviceWorker?: unknown }).serviceWorker
    }
  })
})
