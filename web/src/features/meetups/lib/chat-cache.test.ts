import { QueryClient, type InfiniteData } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { HubMessage } from '@/lib/hub'
import { meetingKeys } from '../api/keys'
import type { ChatMessage, ChatMessagePage } from '../api/types'
import { CHAT_CHANNEL, chatMessage, ROOM } from '../test/fixtures'
import { applyMeetupChatEvent, readMeetupChatEvent } from './chat-cache'

const hub = (event: string, payload: unknown, contextKey = `channel:${CHAT_CHANNEL}`): HubMessage => ({ type: 'api:messages:broadcast', contextKey, event, data: { payload } })

function cached(messages: ChatMessage[]) {
  const qc = new QueryClient()
  const data: InfiniteData<ChatMessagePage, string | undefined> = { pages: [{ results: messages, total: messages.length }], pageParams: [undefined] }
  qc.setQueryData(meetingKeys.chat(ROOM), data)
  return { qc, shown: () => qc.getQueryData<InfiniteData<ChatMessagePage>>(meetingKeys.chat(ROOM))!.pages.flatMap((p) => p.results.map((m) => `${m.id}:${m.raw}`)) }
}

describe('the Meet Up chat’s live events', () => {
  it('reads its own chat’s thread events: the message names the Meet Up, the context key its channel', () => {
    const m = chatMessage('b1', 'hello')
    expect(readMeetupChatEvent(hub('thread.created', m), ROOM)).toEqual({ kind: 'created', message: m })
    expect(readMeetupChatEvent(hub('thread.created', { ...m, roomId: null }), ROOM)).toBeUndefined()
    expect(readMeetupChatEvent(hub('thread.created', { ...m, roomId: 'another' }), ROOM)).toBeUndefined()
    expect(readMeetupChatEvent(hub('thread.created', m, 'thread:b1'), ROOM)).toBeUndefined()
    expect(readMeetupChatEvent(hub('thread.deleted', { id: 'b1', channelId: CHAT_CHANNEL }), ROOM)).toEqual({ kind: 'deleted', id: 'b1' })
  })

  it('adds a new message newest first once, replaces an edit, and removes a deletion', () => {
    const { qc, shown } = cached([chatMessage('b1', 'hello')])
    applyMeetupChatEvent(qc, ROOM, hub('thread.created', chatMessage('b2', 'second')))
    applyMeetupChatEvent(qc, ROOM, hub('thread.created', chatMessage('b2', 'second')))
    expect(shown()).toEqual(['b2:second', 'b1:hello'])
    applyMeetupChatEvent(qc, ROOM, hub('thread.updated', chatMessage('b1', 'hello, edited')))
    expect(shown()).toEqual(['b2:second', 'b1:hello, edited'])
    applyMeetupChatEvent(qc, ROOM, hub('thread.deleted', { id: 'b2', channelId: CHAT_CHANNEL }))
    expect(shown()).toEqual(['b1:hello, edited'])
  })
})
