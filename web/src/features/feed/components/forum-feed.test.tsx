import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import userEventLib from '@testing-library/user-event'
import { screen, waitFor, within } from '@testing-library/react'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { CHANNEL, forum, ME, reply, thread } from '@/test/factories'
import { ForumFeed } from './forum-feed'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const series = forum({ name: 'Test forum', description: 'd', exclusivity: 'open' })

function serve(results: unknown[]) {
  return stubFetch((_m, path) => {
    if (path === '/api/threads/t2/asker') return json(200, { userId: 'u9', firstName: 'Ann', lastName: 'Asker', avatar: null })
    if (path.startsWith(`/api/channels/${CHANNEL}/threads`)) {
      return json(200, { results: path.includes('createdBefore') ? [] : results })
    }
    if (path.startsWith('/api/series/')) return json(200, { results: [], total: 0 })
    return json(404, { code: 'notFound', message: 'no' })
  })
}

describe('ForumFeed', () => {
  it('shows posts by kind: an anonymous question without its author, the expert badge, the featured comment', async () => {
    const calls = serve([
      thread('t3', { type: 'question', creatorAs: 'anonymous', creatorId: null, creator: null, raw: 'Who knows?' }),
      thread('t2', { raw: 'Hello [Ada L](0190a000-0000-7000-8000-0000000000aa) #intro', repliesCount: 3, commentsCount: 2, replies: [reply('c1', { raw: 'first!' })] }),
      // A kind this client does not know is shown as such, not as a broken feed.
      thread('t1', { type: 'poll' as never }),
    ])
    await renderInApp(<ForumFeed series={series} />)
    const cards = await screen.findAllByTestId('post-card')
    expect(cards).toHaveLength(2)
    const question = cards[0]!
    expect(within(question).getByTestId('post-author')).toHaveTextContent('Anonymous')
    expect(within(question).queryByText(/Olga/)).toBeNull()
    expect(within(question).queryByRole('button', { name: 'See who asked' })).toBeNull()
    const post = cards[1]!
    expect(within(post).getByRole('img', { name: 'Expert' })).toBeInTheDocument()
    expect(within(post).getByLabelText('Mention of Ada L')).toHaveTextContent('@Ada L')
    expect(within(post).getAllByTestId('comment')).toHaveLength(1)
    // Two comments and a reply to one are not "3 comments".
    expect(within(post).getByTestId('comment-count')).toHaveTextContent('2 comments · 1 reply')
    expect(within(post).getByRole('button', { name: 'Show more comments' })).toBeInTheDocument()
    expect(within(post).queryByRole('button', { name: 'Manage post' })).toBeNull()
    expect(screen.getByTestId('post-unknown')).toHaveTextContent('This post cannot be shown.')
    const first = new URL(calls[0]!.url)
    expect(first.searchParams.get('pageSize')).toBe('10')
    expect(first.searchParams.has('createdBefore')).toBe(false)
  })

  it('shows a clicked hashtag\'s posts: the hashtag asks the page, which passes it back, and Show all posts clears it', async () => {
    const calls = serve([thread('t2', { raw: 'Hello #intro', hashtags: ['intro'] })])
    const asked: (string | undefined)[] = []
    // The forum page keeps the hashtag in its address; here, in state.
    function Page() {
      const [hashtag, setHashtag] = useState<string>()
      return <ForumFeed series={series} hashtag={hashtag} onHashtag={(h) => (asked.push(h), setHashtag(h))} />
    }
    await renderInApp(<Page />)
    await userEvent.click(await screen.findByRole('button', { name: 'Show the posts tagged #intro' }))
    expect(asked).toEqual(['intro'])
    expect(await screen.findByTestId('hashtag-banner')).toHaveTextContent('Posts tagged #intro')
    await waitFor(() => expect(calls.some((r) => new URL(r.url).searchParams.get('hashtag') === 'intro')).toBe(true))
    await userEvent.click(screen.getByRole('button', { name: 'Show all posts' }))
    expect(asked).toEqual(['intro', undefined])
  })

  it('offers the manage menu on what the member may manage, and the look at an anonymous asker to forum admins', async () => {
    const calls = serve([
      thread('t2', { type: 'question', creatorAs: 'anonymous', creatorId: null, creator: null, canManage: true }),
      thread('t1', { creatorId: ME, canManage: true }),
    ])
    await renderInApp(<ForumFeed series={{ ...series, role: 'admin' }} />)
    const cards = await screen.findAllByTestId('post-card')
    const look = within(cards[0]!).getByRole('button', { name: 'See who asked' })
    expect(look).toHaveAccessibleDescription('For moderation only. Your look is recorded.')
    expect(within(cards[1]!).getByRole('button', { name: 'Manage post' })).toBeInTheDocument()
    // A look is recorded: it asks first, and Cancel asks the server nothing.
    const asked = () => calls.filter((r) => new URL(r.url).pathname === '/api/threads/t2/asker').length
    await userEvent.click(look)
    const confirm = await screen.findByRole('dialog', { name: 'See who asked this question?' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(asked()).toBe(0)
    await userEvent.click(look)
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'See who asked' }))
    expect(await within(cards[0]!).findByText('Asked by Ann Asker')).toBeInTheDocument()
    expect(asked()).toBe(1)
  })

  it.each(['comment', 'mention'] as const)('opens the post of a notification (?reason=%s) with every comment and their replies expanded', async (reason) => {
    const comments = [
      reply('c1', { raw: 'first!', repliesCount: 1, replies: [reply('r1', { parentId: 'c1', raw: 'a reply' })] }),
      reply('c2', { raw: 'second' }),
      reply('c3', { raw: 'third' }),
    ]
    stubFetch((_m, path) => {
      if (path === '/api/threads/t9') return json(200, thread('t9', { raw: 'The post', repliesCount: 4, replies: comments }))
      if (path.startsWith('/api/series/')) return json(200, { results: [], total: 0 })
      return json(404, { code: 'notFound', message: 'no' })
    })
    await renderInApp(<ForumFeed series={series} postId="t9" reason={reason} />)
    const post = await screen.findByTestId('single-post')
    expect(within(post).getByText('The post')).toBeInTheDocument()
    for (const text of ['first!', 'a reply', 'second', 'third']) expect(await within(post).findByText(text)).toBeInTheDocument()
    expect(within(post).queryByRole('button', { name: 'Show more comments' })).toBeNull()
    expect(within(post).getByRole('button', { name: 'Hide replies' })).toHaveAttribute('aria-expanded', 'true')
  })

  it('says so when there are no posts', async () => {
    serve([])
    await renderInApp(<ForumFeed series={series} />)
    await waitFor(() => expect(screen.getByText('No posts yet. Start the conversation!')).toBeInTheDocument())
  })
})
