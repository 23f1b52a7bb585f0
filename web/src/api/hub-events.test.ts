import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HUB_EVENTS, isHubEvent, keyId, LIVE_KEYS, liveEvent, payloadOf, type HubMessage } from './hub-events'

const msg = (event: string, payload: unknown, contextKey = 'user:u1'): HubMessage => ({ type: 'api:messages:broadcast', contextKey, event, data: { payload } })

// The names the OpenAPI document lists under LivePayloads, as the generated
// types carry them: HUB_EVENTS must name each one, and nothing else.
const schema = readFileSync(resolve(import.meta.dirname, 'schema.d.ts'), 'utf8')
const block = /LivePayloads: \{\n([\s\S]*?)\n\s*\};/.exec(schema)?.[1] ?? ''
const documented = [...block.matchAll(/^\s*"([a-z.]+)":/gm)].map((m) => m[1])

describe('HUB_EVENTS', () => {
  it('names every event of the document once, and only those', () => {
    expect(documented.length).toBeGreaterThan(30)
    const names = Object.values(HUB_EVENTS)
    expect(new Set(names).size).toBe(names.length)
    expect([...names].sort()).toEqual([...documented].sort())
  })

  it('tells a documented event from any other name', () => {
    expect(isHubEvent('thread.reply.created')).toBe(true)
    expect(isHubEvent('thread.replied')).toBe(false)
    expect(isHubEvent('')).toBe(false)
  })
})

describe('liveEvent', () => {
  it('reads a documented event with its payload', () => {
    const p = { userId: 'u1', status: 'away' }
    expect(liveEvent(msg('user.status', p))).toEqual({ event: 'user.status', contextKey: 'user:u1', payload: p })
  })

  it('is undefined for an unknown event or a payload that is not an object', () => {
    expect(liveEvent(msg('user.sneezed', { userId: 'u1' }))).toBeUndefined()
    expect(liveEvent(msg('user.status', null))).toBeUndefined()
    expect(liveEvent(msg('user.status', 'away'))).toBeUndefined()
    expect(liveEvent({ type: 'api:messages:broadcast', contextKey: 'user:u1', event: 'user.status' } as unknown as HubMessage)).toBeUndefined()
  })
})

describe('payloadOf', () => {
  it('is the payload when the message is one of the events asked for', () => {
    const m = msg('presence.settings', { awayAfter: 60_000 })
    expect(payloadOf(m, HUB_EVENTS.presenceSettings)?.awayAfter).toBe(60_000)
    expect(payloadOf(msg('user.disconnected', { userId: 'u1', status: 'offline' }), HUB_EVENTS.userConnected, HUB_EVENTS.userDisconnected)?.status).toBe('offline')
  })

  it('is undefined for another event, or one without an object payload', () => {
    expect(payloadOf(msg('user.updated', { id: 'u1' }), HUB_EVENTS.userStatus)).toBeUndefined()
    expect(payloadOf(msg('presence.settings', null), HUB_EVENTS.presenceSettings)).toBeUndefined()
  })
})

describe('context keys', () => {
  it('are built as type:id and read back', () => {
    expect(LIVE_KEYS.user('u1')).toBe('user:u1')
    expect(LIVE_KEYS.channel('c1')).toBe('channel:c1')
    expect(keyId('channel:c1')).toBe('c1')
    expect(keyId('user:u1', 'user')).toBe('u1')
    expect(keyId('series:s1', 'user')).toBeUndefined()
    expect(keyId('nokey')).toBeUndefined()
  })
})
