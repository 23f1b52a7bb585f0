import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { HubMessage } from '@/lib/hub'
import { json, personalizationServer, stubFetch } from '@/test/utils'
import { applyPersonalizationEvent, idList, merged, personalizationKey, personalizationQuery, setTimeZoneIfEmpty, withId } from './personalization'

afterEach(() => vi.unstubAllGlobals())

const ME = '0190a000-0000-7000-8000-000000000031'
const hub = (event: string, payload: unknown): HubMessage => ({ type: 'api:messages:broadcast', contextKey: `user:${ME}`, event, data: { payload } })

describe('applyPersonalizationEvent', () => {
  it('reads the personalization of the user it names again, and only on its event', () => {
    const qc = new QueryClient()
    qc.setQueryData(personalizationKey(ME), {})
    const stale = () => qc.getQueryState(personalizationKey(ME))!.isInvalidated
    expect(applyPersonalizationEvent(qc, hub('user.notified', { userId: ME }))).toBe(false)
    expect(applyPersonalizationEvent(qc, hub('user.personalization.updated', { keys: ['x'] }))).toBe(false)
    expect(stale()).toBe(false)
    expect(applyPersonalizationEvent(qc, hub('user.personalization.updated', { userId: ME, keys: ['reminders.newMessages.dismissed'] }))).toBe(true)
    expect(stale()).toBe(true)
  })
})

describe('the one client', () => {
  it('reads through one key, which the time zone on sign-in fills from the answer', async () => {
    const server = personalizationServer(ME, { 'feed.webLink.dontConfirmNavigation': true })
    stubFetch(async (method, path, req) => (await server.answer(method, path, req)) ?? json(404, {}))
    const qc = new QueryClient()
    expect(personalizationQuery(ME).queryKey).toEqual(personalizationKey(ME))
    await setTimeZoneIfEmpty(qc, ME, 'Europe/Paris')
    expect(server.patches).toEqual([{ 'notifications.timezone': 'Europe/Paris' }])
    expect(qc.getQueryData(personalizationKey(ME))).toEqual({ 'feed.webLink.dontConfirmNavigation': true, 'notifications.timezone': 'Europe/Paris' })
    // A zone already stored is kept.
    await setTimeZoneIfEmpty(qc, ME, 'Asia/Tokyo')
    expect(server.patches).toHaveLength(1)
  })

  it('merges as the server does, and keeps lists of ids', () => {
    expect(merged({ a: 1, b: 2 }, { b: null, c: 3 })).toEqual({ a: 1, c: 3 })
    expect(idList({ k: ['x', 2, 'y'] }, 'k')).toEqual(['x', 'y'])
    expect(idList({ k: 'x' }, 'k')).toEqual([])
    expect(withId(['x', 'y'], 'x')).toEqual(['y', 'x'])
    expect(withId(Array.from({ length: 500 }, (_, i) => `${i}`), 'new')).toHaveLength(500)
  })
})
