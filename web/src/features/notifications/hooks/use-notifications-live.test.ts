import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { HubMessage } from '@/lib/hub'
import { applyNotificationEvent } from './use-notifications-live'

const ME = '0190a000-0000-7000-8000-000000000001'
const OTHER = '0190a000-0000-7000-8000-000000000002'

const hub = (event: string, payload: unknown): HubMessage => ({ type: 'api:messages:broadcast', contextKey: `user:${ME}`, event, data: { payload } })

function cached() {
  const qc = new QueryClient()
  qc.setQueryData(['notifications'], { pages: [{ results: [], total: 0, unread: 0 }], pageParams: [1] })
  return qc
}
const stale = (qc: QueryClient) => qc.getQueryState(['notifications'])!.isInvalidated

describe('applyNotificationEvent (contract 17 live events)', () => {
  it('reads the list again on a mention', () => {
    const qc = cached()
    expect(applyNotificationEvent(qc, ME, hub('user.mentioned', { id: 'n1', type: 'mention' }))).toBe(true)
    expect(stale(qc)).toBe(true)
  })

  it('reads the list again when the member was given access to a forum', () => {
    const qc = cached()
    expect(applyNotificationEvent(qc, ME, hub('user.notified', { id: 'n2', type: 'forum-access', postId: null }))).toBe(true)
    expect(stale(qc)).toBe(true)
  })

  it('reads the list again on a comment or reply to what the member wrote, not to what another wrote', () => {
    const other = cached()
    expect(applyNotificationEvent(other, ME, hub('channel.thread.reply.created', { id: 'r1', postId: 'p1', parentId: null, parentCreatorId: OTHER, seriesId: 's' }))).toBe(false)
    expect(stale(other)).toBe(false)
    const mine = cached()
    expect(applyNotificationEvent(mine, ME, hub('channel.thread.reply.created', { id: 'r1', postId: 'p1', parentId: null, parentCreatorId: ME, seriesId: 's' }))).toBe(true)
    expect(stale(mine)).toBe(true)
  })

  it("reads the list again when another tab changed the notifications' keys, not the chat's", () => {
    const chat = cached()
    expect(applyNotificationEvent(chat, ME, hub('user.personalization.updated', { userId: ME, keys: ['reminders.newMessages.dismissed'] }))).toBe(false)
    expect(stale(chat)).toBe(false)
    const notes = cached()
    expect(applyNotificationEvent(notes, ME, hub('user.personalization.updated', { userId: ME, keys: ['notifications.posts.dismissed'] }))).toBe(true)
    expect(stale(notes)).toBe(true)
  })

  it('leaves other events alone', () => {
    const qc = cached()
    expect(applyNotificationEvent(qc, ME, hub('user.updated', { id: ME }))).toBe(false)
    expect(stale(qc)).toBe(false)
  })
})
