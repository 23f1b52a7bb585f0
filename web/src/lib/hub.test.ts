import { describe, expect, it } from 'vitest'
import { backoffDelay, Hub, hubUrl, type SocketLike } from './hub'

// A socket the test drives by hand, and timers it runs by hand: what is
// tested is the hub's own routing and reconnection logic.
class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null
  onmessage: SocketLike['onmessage'] = null
  onclose: SocketLike['onclose'] = null
  closedWith?: number
  close(code?: number) {
    this.closedWith = code
  }
}

function setup() {
  const sockets: FakeSocket[] = []
  const timers: Array<{ fn: () => void; ms: number }> = []
  const hub = new Hub({
    url: 'ws://x/api/hub',
    connect: () => {
      const s = new FakeSocket()
      sockets.push(s)
      return s
    },
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => {},
  })
  return { hub, sockets, timers }
}

const msg = (contextKey: string, event = 'thread.created') =>
  JSON.stringify({ type: 'api:messages:broadcast', contextKey, event, data: { payload: { id: 1 } } })

describe('Hub', () => {
  it('routes messages by contextKey, and all of them to *', () => {
    const { hub, sockets } = setup()
    hub.start()
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

  it('reconnects with growing delays, and tells listeners after a loss', () => {
    const { hub, sockets, timers } = setup()
    let reconnects = 0
    hub.onReconnect(() => reconnects++)
    hub.start()
    sockets[0]!.onopen!({})
    expect(reconnects).toBe(0)
    sockets[0]!.onclose!({ code: 1006 })
    expect(timers).toHaveLength(1)
    timers[0]!.fn()
    sockets[1]!.onclose!({ code: 1013 })
    expect(timers[1]!.ms).toBeGreaterThan(timers[0]!.ms)
    timers[1]!.fn()
    sockets[2]!.onopen!({})
    expect(reconnects).toBe(1)
    // After a success the backoff starts over.
    sockets[2]!.onclose!({ code: 1001 })
    expect(timers[2]!.ms).toBeLessThanOrEqual(1000)
  })

  it('does not reconnect a signed-out session or a closed hub', () => {
    const { hub, sockets, timers } = setup()
    hub.start()
    sockets[0]!.onclose!({ code: 4401 })
    expect(timers).toHaveLength(0)
    const other = setup()
    other.hub.start()
    other.hub.close()
    expect(other.sockets[0]!.closedWith).toBe(1000)
    other.sockets[0]!.onclose!({ code: 1000 })
    expect(other.timers).toHaveLength(0)
  })
})

describe('backoffDelay', () => {
  it('doubles from 1 s up to 30 s, with at most 20% jitter off', () => {
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, () => 1))).toEqual([1000, 2000, 4000, 8000, 30000])
    expect(backoffDelay(0, () => 0)).toBe(800)
  })
})

describe('hubUrl', () => {
  it('uses wss on https and carries the token as a query parameter', () => {
    expect(hubUrl('a b', { protocol: 'https:', host: 'agora.example' })).toBe('wss://agora.example/api/hub?access_token=a%20b')
    expect(hubUrl('t', { protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/api/hub?access_token=t')
  })
})
