import type { Query } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { ApiError } from '@/api/client'
import { backoffDelay, Hub, hubUrl, missedBefore, type IdleLike, type SocketLike } from './hub'

// A socket the test drives by hand, and timers it runs by hand: what is
// tested is the hub's own routing and reconnection logic.
class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null
  onmessage: SocketLike['onmessage'] = null
  onclose: SocketLike['onclose'] = null
  closedWith?: number
  sent: string[] = []
  close(code?: number) {
    this.closedWith = code
  }
  send(data: string) {
    this.sent.push(data)
  }
}

// settled lets the hub's pending ticket requests finish.
const settled = () => new Promise((r) => setTimeout(r, 0))

function setup(url: () => Promise<string> = async () => `ws://x/api/hub?ticket=${++tickets}`) {
  const sockets: FakeSocket[] = []
  const urls: string[] = []
  const timers: Array<{ fn: () => void; ms: number }> = []
  const hub = new Hub({
    url,
    connect: (u) => {
      const s = new FakeSocket()
      sockets.push(s)
      urls.push(u)
      return s
    },
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => {},
  })
  return { hub, sockets, urls, timers }
}
let tickets = 0

const msg = (contextKey: string, event = 'thread.created') =>
  JSON.stringify({ type: 'api:messages:broadcast', contextKey, event, data: { payload: { id: 1 } } })
// firstMessage is what the server sends first on each connection, once it has registered it.
const firstMessage = JSON.stringify({ type: 'api:messages:broadcast', contextKey: 'user:me', event: 'presence.settings', data: { payload: { awayAfter: 60_000 } } })

describe('Hub', () => {
  it('routes messages by contextKey, and all of them to *', async () => {
    const { hub, sockets } = setup()
    hub.start()
    await settled()
    const a: string[] = []
    const all: string[] = []
    const off = hub.subscribe('series:1', (m) => a.push(m.event))
    hub.subscribe('*', (m) => all.push(m.contextKey))
    sockets[0]!.onmessage!({ data: msg('series:1') })
    sockets[0]!.onmessage!({ data: msg('series:2') })
    sockets[0]!.onmessage!({ data: 'not json' })
    sockets[0]!.onmessage!({ data: JSON.stringify({ nope: true }) })
    off()
    sockets[0]!.onmessage!({ data: msg('series:1', 'thread.deleted') })
    expect(a).toEqual(['thread.created'])
    expect(all).toEqual(['series:1', 'series:2', 'series:1'])
  })

  it('dispatches every message of a frame that holds several, one per line, in order', async () => {
    const { hub, sockets } = setup()
    hub.start()
    await settled()
    const got: string[] = []
    hub.subscribe('*', (m) => got.push(`${m.contextKey} ${m.event}`))
    sockets[0]!.onmessage!({ data: [msg('series:1'), msg('thread:2', 'thread.updated'), 'not json', msg('series:1', 'thread.deleted')].join('\n') })
    expect(got).toEqual(['series:1 thread.created', 'thread:2 thread.updated', 'series:1 thread.deleted'])
  })

  it('reconnects with growing delays, each time with a new ticket, and tells listeners each time a connection goes live', async () => {
    const { hub, sockets, urls, timers } = setup()
    const live: number[] = []
    hub.onLive((since) => live.push(since))
    hub.start()
    hub.start()
    await settled()
    expect(sockets).toHaveLength(1)
    // Open is not live: the server registers the connection, then sends its first message.
    sockets[0]!.onopen!({})
    expect(live).toHaveLength(0)
    const before = Date.now()
    sockets[0]!.onmessage!({ data: firstMessage })
    expect(live).toHaveLength(1)
    expect(live[0]).toBeGreaterThanOrEqual(before)
    // Other messages are not a new connection.
    sockets[0]!.onmessage!({ data: msg('series:1') })
    expect(live).toHaveLength(1)
    sockets[0]!.onclose!({ code: 1006 })
    expect(timers).toHaveLength(1)
    timers[0]!.fn()
    await settled()
    sockets[1]!.onclose!({ code: 1013 })
    expect(timers[1]!.ms).toBeGreaterThan(timers[0]!.ms)
    timers[1]!.fn()
    await settled()
    expect(new Set(urls).size).toBe(3)
    sockets[2]!.onopen!({})
    sockets[2]!.onmessage!({ data: firstMessage })
    expect(live).toHaveLength(2)
    // After a success the backoff starts over.
    sockets[2]!.onclose!({ code: 1001 })
    expect(timers[2]!.ms).toBeLessThanOrEqual(1000)
  })

  it('counts as missed a query read before the connection went live, or being read then, and not one read after', () => {
    const since = 1_000
    const query = (dataUpdatedAt: number, fetchStatus: 'idle' | 'fetching' = 'idle') => ({ state: { dataUpdatedAt, fetchStatus } }) as unknown as Query
    const missed = missedBefore(since)
    expect(missed(query(999))).toBe(true)
    expect(missed(query(0))).toBe(true)
    expect(missed(query(1_500, 'fetching'))).toBe(true)
    expect(missed(query(1_000))).toBe(false)
    expect(missed(query(1_500))).toBe(false)
  })

  it('does not reconnect a signed-out session or a closed hub', async () => {
    const { hub, sockets, timers } = setup()
    hub.start()
    await settled()
    sockets[0]!.onclose!({ code: 4401 })
    expect(timers).toHaveLength(0)
    const other = setup()
    other.hub.start()
    await settled()
    other.hub.close()
    expect(other.sockets[0]!.closedWith).toBe(1000)
    other.sockets[0]!.onclose!({ code: 1000 })
    expect(other.timers).toHaveLength(0)
  })

  it('retries when no ticket could be had, and stops when the session is over', async () => {
    let fail: unknown = new TypeError('Failed to fetch')
    const { hub, sockets, timers } = setup(async () => {
      if (fail) throw fail
      return 'ws://x/api/hub?ticket=t'
    })
    hub.start()
    await settled()
    expect(sockets).toHaveLength(0)
    expect(timers).toHaveLength(1)
    fail = new ApiError(401, { code: 'tokenInvalid', message: 'x' })
    timers[0]!.fn()
    await settled()
    expect(sockets).toHaveLength(0)
    expect(timers).toHaveLength(1)
  })
})

describe('backoffDelay', () => {
  it('doubles from 1 s up to 30 s, with at most 20% jitter off', () => {
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, () => 1))).toEqual([1000, 2000, 4000, 8000, 30000])
    expect(backoffDelay(0, () => 0)).toBe(800)
  })
})

describe('hubUrl', () => {
  it('uses wss on https and carries the ticket, never a session token, as a query parameter', () => {
    expect(hubUrl('a b', { protocol: 'https:', host: 'agora.example' })).toBe('wss://agora.example/api/hub?ticket=a%20b')
    expect(hubUrl('t', { protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/api/hub?ticket=t')
  })
})

// A hand-driven idle detector.
class FakeIdle implements IdleLike {
  isIdle = false
  stopped = false
  constructor(
    public awayAfter: number,
    public onChange: (idle: boolean) => void,
  ) {}
  setAwayAfter(ms: number) {
    this.awayAfter = ms
  }
  stop() {
    this.stopped = true
  }
  set(idle: boolean) {
    this.isIdle = idle
    this.onChange(idle)
  }
}

describe('Hub presence', () => {
  function presenceSetup() {
    const sockets: FakeSocket[] = []
    const detectors: FakeIdle[] = []
    const timers: Array<() => void> = []
    const hub = new Hub({
      url: async () => 'ws://x/api/hub',
      connect: () => {
        const s = new FakeSocket()
        sockets.push(s)
        return s
      },
      setTimer: (fn) => timers.push(fn),
      clearTimer: () => {},
      idle: (awayAfter, onChange) => {
        const d = new FakeIdle(awayAfter, onChange)
        detectors.push(d)
        return d
      },
    })
    return { hub, sockets, detectors, timers }
  }
  const settings = (awayAfter: number) =>
    JSON.stringify({ type: 'api:messages:broadcast', contextKey: 'user:me', event: 'presence.settings', data: { payload: { awayAfter } } })
  const idle = JSON.stringify({ type: 'presence', state: 'idle' })
  const active = JSON.stringify({ type: 'presence', state: 'active' })

  it('starts the idle detector with the away time the server sends, and reports its changes', async () => {
    const { hub, sockets, detectors } = presenceSetup()
    hub.start()
    await settled()
    const s = sockets[0]!
    s.onopen!({})
    expect(detectors).toHaveLength(0)
    s.onmessage!({ data: settings(90_000) })
    expect(detectors).toHaveLength(1)
    expect(detectors[0]!.awayAfter).toBe(90_000)
    expect(s.sent).toEqual([])
    detectors[0]!.set(true)
    detectors[0]!.set(false)
    expect(s.sent).toEqual([idle, active])
    hub.close()
    expect(detectors[0]!.stopped).toBe(true)
  })

  it('tells a new connection at once when the tab is idle already, and sends nothing while reconnecting', async () => {
    const { hub, sockets, detectors, timers } = presenceSetup()
    hub.start()
    await settled()
    sockets[0]!.onopen!({})
    sockets[0]!.onmessage!({ data: settings(90_000) })
    sockets[0]!.onclose!({ code: 1006 })
    detectors[0]!.set(true) // while no connection is open
    timers.shift()!()
    await settled()
    const s = sockets[1]!
    detectors[0]!.set(false)
    detectors[0]!.set(true) // connecting: not sendable yet
    expect(s.sent).toEqual([])
    s.onopen!({})
    s.onmessage!({ data: settings(60_000) })
    expect(detectors).toHaveLength(1)
    expect(detectors[0]!.awayAfter).toBe(60_000)
    expect(s.sent).toEqual([idle])
    expect(sockets[0]!.sent).toEqual([])
  })
})
