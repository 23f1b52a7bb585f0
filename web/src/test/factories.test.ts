import { describe, expect, it } from 'vitest'
import { makeQueryClient } from '@/lib/query-client'
import { Session } from '@/lib/session'
import { CHANNEL, forum, forumMember, ME, reactionStats, reply, SERIES, signIn, thread, user } from './factories'

describe('the shared test factories', () => {
  it('put the default post and comment in the default forum', () => {
    const f = forum()
    const t = thread('t1', { replies: [reply('c1')] })
    expect(t.seriesId).toBe(f.id)
    expect(t.channelId).toBe(f.mainChannelId)
    expect([f.id, f.mainChannelId]).toEqual([SERIES, CHANNEL])
    expect(t.replies[0]!.threadId).toBe(t.id)
  })

  it('let the overrides win over every default', () => {
    expect(forum({ id: 'f1', role: 'admin', adminChannelId: 'ch2' })).toMatchObject({ id: 'f1', role: 'admin', adminChannelId: 'ch2', name: 'Design Forum' })
    expect(forumMember('Ada', { userId: null, status: 'invited' })).toMatchObject({ firstName: 'Ada', email: 'ada@example.test', userId: null, status: 'invited' })
    expect(thread('t2', { creator: null, creatorId: null }).creator).toBeNull()
  })

  it('count the reactions given in the total', () => {
    expect(reactionStats()).toEqual({ liked: 0, loved: 0, smiled: 0, disliked: 0, neutral: 0, totalCount: 0 })
    expect(reactionStats({ liked: 2, neutral: 1 }).totalCount).toBe(3)
  })

  it('sign a session in as the default user, or as the one given', () => {
    const session = new Session(makeQueryClient())
    signIn(session)
    expect(session.get()).toMatchObject({ status: 'user', token: 't', user: user() })
    expect(session.user?.id).toBe(ME)
    signIn(session, { id: 'u2', firstName: 'Bob' }, 'tok')
    expect(session.get()).toMatchObject({ token: 'tok', user: { id: 'u2', firstName: 'Bob', lastName: 'Me' } })
  })
})
