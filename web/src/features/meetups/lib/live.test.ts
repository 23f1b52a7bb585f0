import { describe, expect, it } from 'vitest'
import { makeQueryClient } from '@/lib/query-client'
import { meetingKeys } from '../api/keys'
import type { Meeting, MeetingList } from '../api/types'
import { meeting, POST, ROOM } from '../test/fixtures'
import { applyMeetingEvent, readMeetingEvent } from './live'

const msg = (event: string, payload: unknown) => ({ event, data: { payload } }) as never

type Post = { id: string; meeting: Meeting | null }
const feed = (posts: Post[]) => ({ pages: [{ results: posts }], pageParams: [null] })

describe('Meet Up live events (contract 18)', () => {
  it('puts an updated Meet Up in its entry, the lists and the feed post that carries it; an older copy changes nothing', () => {
    const qc = makeQueryClient()
    const old = meeting()
    qc.setQueryData(meetingKeys.one(ROOM), old)
    qc.setQueryData(meetingKeys.list('s'), { results: [old], total: 1 })
    qc.setQueryData(['channels', 'ch', 'threads'], feed([{ id: POST, meeting: old }, { id: 'other', meeting: null }]))
    qc.setQueryData(['threads', POST], { id: POST, meeting: old })
    const changed = { ...old, name: 'Renamed', updatedOn: '2026-11-21T09:00:00.000Z' }
    applyMeetingEvent(qc, readMeetingEvent(msg('meeting.updated', changed))!)
    expect(qc.getQueryData<Meeting>(meetingKeys.one(ROOM))?.name).toBe('Renamed')
    expect(qc.getQueryData<MeetingList>(meetingKeys.list('s'))?.results[0]?.name).toBe('Renamed')
    expect(qc.getQueryData<ReturnType<typeof feed>>(['channels', 'ch', 'threads'])?.pages[0]?.results[0]?.meeting?.name).toBe('Renamed')
    expect(qc.getQueryData<Post>(['threads', POST])?.meeting?.name).toBe('Renamed')
    applyMeetingEvent(qc, readMeetingEvent(msg('meeting.updated', { ...old, name: 'Stale' }))!)
    expect(qc.getQueryData<Meeting>(meetingKeys.one(ROOM))?.name).toBe('Renamed')
  })

  it('drops a deleted Meet Up from the lists, and records the breakouts state and the minutes state', () => {
    const qc = makeQueryClient()
    const m = meeting({ breakouts: { open: false, rooms: { A: 0 } } })
    qc.setQueryData(meetingKeys.one(ROOM), m)
    qc.setQueryData(['threads', POST], { id: POST, meeting: m })
    applyMeetingEvent(qc, readMeetingEvent(msg('meeting.breakouts.updated', { roomId: ROOM, open: true }))!)
    expect(qc.getQueryData<Meeting>(meetingKeys.one(ROOM))?.breakouts.open).toBe(true)
    applyMeetingEvent(qc, readMeetingEvent(msg('meeting.minutes.updated', { roomId: ROOM, postId: POST, state: 'compiling' }))!)
    expect(qc.getQueryData<Post>(['threads', POST])?.meeting?.minutes.state).toBe('compiling')
    qc.setQueryData(meetingKeys.list(), { results: [m], total: 1 })
    applyMeetingEvent(qc, readMeetingEvent(msg('meeting.deleted', { roomId: ROOM, postId: POST, seriesId: 's' }))!)
    expect(qc.getQueryData<MeetingList>(meetingKeys.list())).toEqual({ results: [], total: 0 })
    expect(readMeetingEvent(msg('thread.created', { roomId: ROOM }))).toBeUndefined()
  })
})
