import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { formatPostDate } from '@/lib/format-date'
import { thread } from '@/test/factories'
import { PostCard } from './post-card'
import { AIChat } from './ai-chat'

afterEach(() => vi.unstubAllGlobals())

const seen = { lastSeen: undefined, me: undefined, touch: () => {} }
const chat = [
  { role: 'user' as const, content: 'When are design reviews?', createdOn: '2026-11-20T09:00:00.000Z' },
  { role: 'other' as const, content: 'On Fridays [1].', createdOn: '2026-11-20T09:00:05.000Z' },
  { role: 'user' as const, content: 'Who runs them?', createdOn: '2026-11-20T09:01:00.000Z' },
  { role: 'other' as const, content: 'The design lead.', createdOn: '2026-11-20T09:01:04.000Z' },
]

describe('the AI chat post (spec 001 §4 "Post kind")', () => {
  it('shows a shared-ai-chat post as the conversation: the AI left, the asker right, with dates', async () => {
    stubFetch(() => json(404, { code: 'notFound', message: 'x' }))
    await renderInApp(
      <PostCard
        thread={thread('t1', { type: 'shared-ai-chat', raw: 'When are design reviews?', chat, canManage: true })}
        seriesId="s1"
        isForumAdmin={false}
        seen={seen}
      />,
    )
    const card = screen.getByTestId('post-card')
    expect(card).toHaveAttribute('data-kind', 'shared-ai-chat')
    expect(within(card).getByText('Shared from AI search')).toBeInTheDocument()
    const list = within(card).getByRole('list', { name: 'Conversation with the AI search' })
    const messages = within(list).getAllByTestId('ai-chat-message')
    expect(messages.map((m) => m.dataset.role)).toEqual(['user', 'other', 'user', 'other'])
    expect(messages[0]).toHaveClass('items-end')
    expect(messages[1]).toHaveClass('items-start')
    expect(messages[0]).toHaveTextContent('Olga Other')
    expect(messages[1]).toHaveTextContent('AI')
    expect(messages[1]).toHaveTextContent('On Fridays [1].')
    const time = within(messages[3]!).getByText(formatPostDate(chat[3]!.createdOn))
    expect(time.tagName).toBe('TIME')
    expect(time).toHaveAttribute('datetime', chat[3]!.createdOn)
    // The conversation replaces the post's text (its first question), shown once.
    expect(within(card).getAllByText('When are design reviews?')).toHaveLength(1)
  })

  it('keeps the citation links and the Sources list of a shared answer', async () => {
    const cited = '0190a000-0000-7000-8000-0000000000p1'
    const answered = [
      chat[0]!,
      { ...chat[1]!, content: 'On Fridays [2].', sources: [{ n: 2, id: cited, threadId: cited, channelId: 'c1', kind: 'post' as const, excerpt: 'Design reviews are on Fridays.' }] },
    ]
    await renderInApp(<AIChat chat={answered} asker="Olga" place={{ communityId: 'c0', seriesId: 's1' }} />)
    const link = screen.getByRole('link', { name: 'Source 2' })
    expect(link).toHaveAttribute('href', `/communities/c0/series/s1/posts/${cited}`)
    expect(link).toHaveTextContent('[2]')
    const sources = screen.getByTestId('ai-sources')
    expect(within(sources).getByRole('link', { name: /Design reviews are on Fridays/ })).toHaveAttribute('href', `/communities/c0/series/s1/posts/${cited}`)
  })

  it('shows a plain post as before', async () => {
    stubFetch(() => json(404, { code: 'notFound', message: 'x' }))
    await renderInApp(<PostCard thread={thread('t2', { raw: 'Just a post' })} seriesId="s1" isForumAdmin={false} seen={seen} />)
    expect(screen.getByText('Just a post')).toBeInTheDocument()
    expect(screen.queryByTestId('ai-chat')).toBeNull()
  })
})
