import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { ChatMessage } from '../api/types'
import { ADA, CHANNEL, ME, channel, message, peer } from '../test/fixtures'
import { Conversation } from './conversation'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const ada = { userId: ADA, firstName: 'Ada', lastName: 'L', avatar: null }

/** serve answers the chat's calls from a conversation kept in memory (newest first), and records the writes. */
function serve(messages: ChatMessage[], { hasChannel = true } = {}) {
  const writes: { method: string; path: string; body: unknown }[] = []
  let list = messages
  const calls = stubFetch(async (method, path, req) => {
    const body = req.headers.get('Content-Type')?.includes('json') ? ((await req.json()) as Record<string, unknown>) : undefined
    if (method !== 'GET') writes.push({ method, path, body })
    if (path.startsWith('/api/channels/private?')) return json(200, hasChannel ? { results: [channel(peer(ADA, 'Ada', 'away'))], total: 1 } : { results: [], total: 0 })
    if (path.startsWith(`/api/channels/private/${CHANNEL}/threads`)) {
      const before = new URL(path, 'http://x').searchParams.get('createdBefore')
      const page = list.filter((m) => !before || m.createdOn < before).slice(0, 20)
      return json(200, { results: page, total: list.length })
    }
    if (path === `/api/channels/private/${CHANNEL}/seen`) return new Response(null, { status: 204 })
    if (method === 'POST' && path === '/api/threads/private') {
      const m = message('new', { raw: body!.raw as string, isMine: true, creatorId: ME, createdOn: '2026-11-25T00:00:00.000Z' })
      list = [m, ...list]
      return json(201, m)
    }
    const edit = path.match(/^\/api\/threads\/private\/([^/]+)$/)
    if (edit && method === 'PATCH') return json(200, { ...list.find((m) => m.id === edit[1])!, raw: 'edited text' })
    if (edit && method === 'DELETE') return new Response(null, { status: 204 })
    const react = path.match(/^\/api\/threads\/private\/([^/]+)\/reaction$/)
    if (react) {
      const reaction = body!.reaction as string | null
      return json(200, { ...list.find((m) => m.id === react[1])!, reactions: reaction ? { [ME]: reaction } : {} })
    }
    return json(404, { code: 'notFound', message: 'no' })
  })
  return { calls, writes }
}

const at = (minute: number) => `2026-11-24T09:${String(minute).padStart(2, '0')}:00.000Z`

describe('Conversation', () => {
  it('shows the peer and the messages oldest at the top, marks the conversation seen, and reads older ones before the oldest', async () => {
    const msgs = Array.from({ length: 25 }, (_, i) => message(`m${i}`, { raw: `text ${i}`, createdOn: at(59 - i) }))
    const { calls, writes } = serve(msgs)
    await renderInApp(<Conversation peer={ada} />)
    expect(screen.getByTestId('conversation-peer')).toHaveTextContent('Ada L')
    expect(await screen.findByText('text 0')).toBeInTheDocument()
    let shown = screen.getAllByTestId('chat-message').map((m) => within(m).getByText(/^text/).textContent)
    expect(shown).toHaveLength(20)
    expect(shown.at(0)).toBe('text 19')
    expect(shown.at(-1)).toBe('text 0')
    expect(screen.getByRole('img', { name: 'Away' })).toBeInTheDocument()
    await waitFor(() => expect(writes).toContainEqual({ method: 'POST', path: `/api/channels/private/${CHANNEL}/seen`, body: undefined }))

    await userEvent.click(screen.getByRole('button', { name: 'Older messages' }))
    await waitFor(() => expect(screen.getAllByTestId('chat-message')).toHaveLength(25))
    shown = screen.getAllByTestId('chat-message').map((m) => within(m).getByText(/^text/).textContent)
    expect(shown.at(0)).toBe('text 24')
    const older = calls.map((c) => new URL(c.url)).filter((u) => u.pathname.endsWith('/threads'))
    expect(older.map((u) => [u.searchParams.get('pageSize'), u.searchParams.get('createdBefore')])).toEqual([
      ['20', null],
      ['20', at(40)],
    ])
  })

  it('sends with Enter to the peer, counting up to 800 characters', async () => {
    const { writes } = serve([message('m1')])
    await renderInApp(<Conversation peer={ada} />)
    await screen.findByText('message m1')
    const box = screen.getByRole('textbox', { name: 'Message' })
    expect(box).toHaveAttribute('maxLength', '800')
    await userEvent.type(box, 'Hello Ada')
    expect(within(screen.getByTestId('chat-editor')).getByTestId('chat-counter')).toHaveTextContent('9/800')
    await userEvent.keyboard('{Enter}')
    await waitFor(() => expect(writes.filter((w) => w.path === '/api/threads/private')).toEqual([{ method: 'POST', path: '/api/threads/private', body: { memberIds: [ADA], raw: 'Hello Ada' } }]))
    expect(await screen.findByText('Hello Ada')).toBeInTheDocument()
    await waitFor(() => expect(box).toHaveValue(''))
  })

  it('lets the author edit (save or cancel) and delete after confirming, and react only to the other’s messages', async () => {
    const { writes } = serve([
      message('mine', { isMine: true, creatorId: ME, raw: 'my words', reactions: { [ADA]: 'loved' } }),
      message('theirs', { raw: 'their words', createdOn: at(1) }),
    ])
    await renderInApp(<Conversation peer={ada} />)
    const mine = (await screen.findByText('my words')).closest('[data-testid="chat-message"]') as HTMLElement
    const theirs = screen.getByText('their words').closest('[data-testid="chat-message"]') as HTMLElement
    // The other's reaction on one's own message; no picker on it, none to edit theirs.
    expect(within(mine).getByRole('img', { name: 'Reaction: Love' })).toBeInTheDocument()
    expect(within(mine).queryByRole('button', { name: 'React' })).toBeNull()
    expect(within(theirs).queryByRole('button', { name: 'Edit message' })).toBeNull()
    expect(within(theirs).queryByRole('button', { name: 'Delete message' })).toBeNull()

    await userEvent.click(within(mine).getByRole('button', { name: 'Edit message' }))
    await userEvent.click(within(mine).getByRole('button', { name: 'Cancel' }))
    expect(within(mine).getByText('my words')).toBeInTheDocument()
    await userEvent.click(within(mine).getByRole('button', { name: 'Edit message' }))
    const edit = within(mine).getByRole('textbox', { name: 'Edit the message' })
    await userEvent.clear(edit)
    await userEvent.type(edit, 'edited text')
    await userEvent.click(within(mine).getByRole('button', { name: 'Save' }))
    expect(await within(mine).findByText('edited text')).toBeInTheDocument()
    expect(writes).toContainEqual({ method: 'PATCH', path: '/api/threads/private/mine', body: { raw: 'edited text' } })

    await userEvent.click(within(theirs).getByRole('button', { name: 'React' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Like' }))
    expect(await within(theirs).findByRole('img', { name: 'Reaction: Like' })).toBeInTheDocument()
    await userEvent.click(within(theirs).getByRole('button', { name: 'React' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Like', pressed: true }))
    await waitFor(() => expect(within(theirs).queryByRole('img', { name: /Reaction/ })).toBeNull())
    expect(writes.filter((w) => w.path.endsWith('/reaction')).map((w) => w.body)).toEqual([{ reaction: 'liked' }, { reaction: null }])

    await userEvent.click(within(mine).getByRole('button', { name: 'Delete message' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete this message?' })
    expect(writes.some((w) => w.method === 'DELETE')).toBe(false)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete message' }))
    await waitFor(() => expect(screen.queryByText('edited text')).toBeNull())
    expect(writes).toContainEqual({ method: 'DELETE', path: '/api/threads/private/mine', body: undefined })
  })

  it('invites a first message when there is no channel with the peer yet', async () => {
    serve([], { hasChannel: false })
    await renderInApp(<Conversation peer={ada} />)
    expect(await screen.findByText('Write the first message to Ada.')).toBeInTheDocument()
  })
})
