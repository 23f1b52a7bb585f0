import { QueryClient, type InfiniteData } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { HubMessage } from '@/lib/hub'
import type { ChatMessage, ChatMessagePage, PrivateChannelList } from '../api/types'
import { ADA, BEN, CHANNEL, channel, message, peer } from '../test/fixtures'
import { applyChatEvent, chatKeys, readChatEvent } from './chat-cache'

const OTHER_CHANNEL = '0190a000-0000-7000-8000-0000000000c2'

const hub = (event: string, payload: unknown, contextKey = `channel:${(payload as { channelId?: string }).channelId}`): HubMessage => ({
  type: 'api:messages:broadcast',
  contextKey,
  event,
  data: { payload },
})

function cached(messages: ChatMessage[]) {
  const qc = new QueryClient()
  const data: InfiniteData<ChatMessagePage, string | undefined> = { pages: [{ results: messages, total: messages.length }], pageParams: [undefined] }
  qc.setQueryData(chatKeys.messages(CHANNEL), data)
  qc.setQueryData<PrivateChannelList>(chatKeys.channels, {
    results: [channel(peer(BEN, 'Ben'), { id: OTHER_CHANNEL }), channel(peer(ADA, 'Ada'), { latestThread: { id: 'm1', creatorId: ADA, raw: 'message m1', createdOn: '2026-11-24T09:00:00.000Z' } })],
    total: 2,
  })
  return {
    qc,
    ids: () => qc.getQueryData<InfiniteData<ChatMessagePage>>(chatKeys.messages(CHANNEL))!.pages.flatMap((p) => p.results.map((m) => `${m.id}:${m.raw}`)),
    channels: () => qc.getQueryData<PrivateChannelList>(chatKeys.channels)!.results,
  }
}

describe('readChatEvent', () => {
  it('reads the private chat’s thread events by their channel context key, not a forum post’s', () => {
    const m = message('m2')
    expect(readChatEvent(hub('thread.created', m))).toEqual({ kind: 'created', message: m })
    expect(readChatEvent(hub('thread.created', m, 'thread:m2'))).toBeUndefined()
    expect(readChatEvent(hub('thread.deleted', { id: 'm2', channelId: CHANNEL }))).toEqual({ kind: 'deleted', id: 'm2', channelId: CHANNEL })
    expect(readChatEvent(hub('private.channel.seen', { channelId: CHANNEL, lastSeenOn: 'x' }, 'user:me'))).toEqual({ kind: 'seen', channelId: CHANNEL, lastSeenOn: 'x' })
    expect(readChatEvent(hub('user.connected', { userId: ADA }, 'user:a'))).toBeUndefined()
  })

  it('leaves a Meet Up chat’s messages (roomId) to the Meet Up screen', () => {
    const m = message('m3', { channelId: OTHER_CHANNEL, roomId: '0190a000-0000-7000-8000-0000000000e1' })
    expect(readChatEvent(hub('thread.created', m))).toBeUndefined()
    expect(readChatEvent(hub('thread.updated', m))).toBeUndefined()
  })
})

describe('applyChatEvent', () => {
  it('adds the peer’s new message to the open conversation once, marks its channel unread and puts it first', () => {
    const { qc, ids, channels } = cached([message('m1')])
    const m2 = message('m2', { raw: 'hello', createdOn: '2026-11-24T10:00:00.000Z' })
    expect(applyChatEvent(qc, hub('thread.created', m2))).toBe(true)
    applyChatEvent(qc, hub('thread.created', m2))
    expect(ids()).toEqual(['m2:hello', 'm1:message m1'])
    expect(channels().map((c) => [c.peer.firstName, c.hasUnread, c.latestThread?.raw])).toEqual([
      ['Ada', true, 'hello'],
      ['Ben', false, undefined],
    ])
  })

  it('leaves one’s own new message read, and reads the channels again for a channel it does not know', async () => {
    const { qc, channels } = cached([message('m1')])
    applyChatEvent(qc, hub('thread.created', message('m2', { isMine: true })))
    expect(channels()[0]!.hasUnread).toBe(false)
    applyChatEvent(qc, hub('thread.created', message('n1', { channelId: '0190a000-0000-7000-8000-0000000000c9' })))
    expect(qc.getQueryState(chatKeys.channels)!.isInvalidated).toBe(true)
  })

  it('applies edits, reactions, deletions and the seen mark from another tab', () => {
    const { qc, ids, channels } = cached([message('m2'), message('m1')])
    applyChatEvent(qc, hub('thread.updated', message('m1', { raw: 'edited' })))
    applyChatEvent(qc, hub('thread.reacted', message('m2', { reactions: { [ADA]: 'loved' } })))
    expect(ids()).toEqual(['m2:message m2', 'm1:edited'])
    expect(channels()[1]!.latestThread?.raw).toBe('edited')
    const reacted = qc.getQueryData<InfiniteData<ChatMessagePage>>(chatKeys.messages(CHANNEL))!.pages[0]!.results[0]!
    expect(reacted.reactions).toEqual({ [ADA]: 'loved' })
    applyChatEvent(qc, hub('thread.deleted', { id: 'm2', channelId: CHANNEL }))
    expect(ids()).toEqual(['m1:edited'])
    qc.setQueryData<PrivateChannelList>(chatKeys.channels, (l) => ({ ...l!, results: l!.results.map((c) => ({ ...c, hasUnread: true })) }))
    applyChatEvent(qc, hub('private.channel.seen', { channelId: CHANNEL, lastSeenOn: '2026-11-24T11:00:00.000Z' }, 'user:me'))
    expect(channels().map((c) => c.hasUnread)).toEqual([true, false])
  })

  it('keeps a conversation’s own channel (found by the peer) in step, and reads one without the channel again', () => {
    const qc = new QueryClient()
    qc.setQueryData<PrivateChannelList>(chatKeys.peerChannel(ADA), { results: [channel(peer(ADA, 'Ada'))], total: 1 })
    qc.setQueryData<PrivateChannelList>(chatKeys.peerChannel(BEN), { results: [], total: 0 })
    applyChatEvent(qc, hub('thread.created', message('m2', { raw: 'hello' })))
    const ada = () => qc.getQueryData<PrivateChannelList>(chatKeys.peerChannel(ADA))!.results[0]!
    expect([ada().hasUnread, ada().latestThread?.raw]).toEqual([true, 'hello'])
    expect(qc.getQueryState(chatKeys.peerChannel(ADA))!.isInvalidated).toBe(false)
    applyChatEvent(qc, hub('private.channel.seen', { channelId: CHANNEL, lastSeenOn: '2026-11-24T11:00:00.000Z' }, 'user:me'))
    expect([ada().hasUnread, ada().lastSeenOn]).toEqual([false, '2026-11-24T11:00:00.000Z'])
    // Ben's first message: his conversation's channel is read again.
    applyChatEvent(qc, hub('thread.created', message('b1', { channelId: OTHER_CHANNEL, creatorId: BEN })))
    expect(qc.getQueryState(chatKeys.peerChannel(BEN))!.isInvalidated).toBe(true)
  })
})
