import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { act, renderHook, waitFor } from '@testing-library/react'
import { QueryClientProvider, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { makeQueryClient } from '@/lib/query-client'
import { json, stubFetch } from '@/test/utils'
import { CHANNEL, reactionStats, reply, thread } from '@/test/factories'
import { feed } from '../test/fixtures'
import { feedKeys, type FeedData, type Thread } from '../lib/thread-cache'
import { threadQuery } from './get-thread'
import { channelThreadsQuery } from './list-channel-threads'
import { useReact } from './react'

function setup(respond: (method: string, path: string, req: Request) => Response | Promise<Response>) {
  const qc = makeQueryClient()
  const post = thread('t1', { reactions: reactionStats({ liked: 2 }), myReaction: 'liked', replies: [reply('c1', { reactions: reactionStats({ smiled: 1 }) })], repliesCount: 1 })
  qc.setQueryData(feedKeys.channel(CHANNEL), feed([post, thread('t2')]))
  qc.setQueryData(feedKeys.thread('t1'), post)
  const calls = stubFetch(respond)
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>
  const inFeed = () => qc.getQueryData<FeedData>(feedKeys.channel(CHANNEL))!.pages[0]!.results[0]!
  const detail = () => qc.getQueryData<Thread>(feedKeys.thread('t1'))!
  return { qc, calls, wrapper, inFeed, detail, post }
}

describe('useReact', () => {
  it('applies the reaction at once, everywhere the post shows', async () => {
    let answer: (r: Response) => void = () => {}
    const { wrapper, inFeed, detail, calls } = setup((method, path) => {
      if (method === 'PUT') return new Promise<Response>((res) => (answer = res))
      if (path.startsWith('/api/threads/t1')) return json(200, thread('t1', { reactions: reactionStats({ liked: 1, loved: 1 }), myReaction: 'loved' }))
      return json(200, { results: [] })
    })
    const { result } = renderHook(() => useReact({ threadId: 't1' }), { wrapper })
    act(() => result.current.mutate('loved'))
    await waitFor(() => expect(inFeed().myReaction).toBe('loved'))
    expect(inFeed().reactions).toEqual(reactionStats({ liked: 1, loved: 1 }))
    expect(detail().myReaction).toBe('loved')
    const put = calls.find((c) => c.method === 'PUT')!
    expect(new URL(put.url).pathname).toBe('/api/threads/t1/reaction')
    expect(await put.clone().json()).toEqual({ reaction: 'loved' })
    answer(json(200, { reactions: reactionStats({ liked: 1, loved: 1 }), myReaction: 'loved' }))
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
  })

  it('rolls back silently when the call fails, then reads the post again', async () => {
    // The reads after the failure wait, so that what the cache holds at the
    // failure is the rollback alone.
    const held: Array<() => void> = []
    const hold = (r: Response) => new Promise<Response>((res) => held.push(() => res(r)))
    let fail = () => {}
    const { wrapper, inFeed, detail, calls, post } = setup((method, path) => {
      if (method === 'PUT') return new Promise<Response>((res) => (fail = () => res(json(500, { code: 'internal', message: 'boom' }))))
      if (path.startsWith('/api/threads/t1')) return hold(json(200, { ...post, raw: 'server copy' }))
      return hold(json(200, { results: [{ ...post, raw: 'server copy' }, thread('t2')] }))
    })
    // The feed and the post on screen (observed queries are the ones refetched).
    const { result } = renderHook(
      () => {
        useQuery(threadQuery('t1'))
        useInfiniteQuery(channelThreadsQuery(CHANNEL))
        return useReact({ threadId: 't1', replyId: 'c1' })
      },
      { wrapper },
    )
    act(() => result.current.mutate('smiled'))
    await waitFor(() => expect(inFeed().replies[0]!.myReaction).toBe('smiled'))
    expect(detail().replies[0]!.reactions).toEqual(reactionStats({ smiled: 2 }))
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true))
    fail()
    await waitFor(() => expect(result.current.isError).toBe(true))
    expect(inFeed()).toEqual(post)
    expect(detail()).toEqual(post)
    expect(new URL(calls.find((c) => c.method === 'PUT')!.url).pathname).toBe('/api/threads/t1/replies/c1/reaction')
    // Then both are read again.
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'GET').map((c) => new URL(c.url).pathname)).toEqual(
        expect.arrayContaining(['/api/threads/t1', `/api/channels/${CHANNEL}/threads`]),
      ),
    )
    act(() => held.forEach((release) => release()))
    await waitFor(() => expect(detail().raw).toBe('server copy'))
    expect(document.querySelector('[data-testid="toast"]')).toBeNull()
  })

  it('sends null to clear the same reaction', async () => {
    const { wrapper, inFeed, calls } = setup((method) =>
      method === 'PUT' ? json(200, { reactions: reactionStats({ liked: 1 }), myReaction: null }) : json(200, { results: [] }),
    )
    const { result } = renderHook(() => useReact({ threadId: 't1' }), { wrapper })
    act(() => result.current.mutate(null))
    await waitFor(() => expect(inFeed().myReaction).toBeNull())
    expect(inFeed().reactions).toEqual(reactionStats({ liked: 1 }))
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true))
    expect(await calls.find((c) => c.method === 'PUT')!.clone().json()).toEqual({ reaction: null })
  })
})
