import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { ChatMessage, PrivateChannelList } from '../api/types'
import { applyChatEvent, chatKeys } from '../lib/chat-cache'
import { ADA, CHANNEL, ME, channel, message, peer } from '../test/fixtures'
import { Conversation } from './conversation'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const ada = { userId: ADA, firstName: 'Ada', lastName: 'L', avatar: null }

/** A member's newest 100 channels, with others than Ada: hers is older. */
const newer = Array.from({ length: 100 }, (_, i) => channel(peer(`0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`, `Peer${i}`), { id: `other-${i}` }))

/**
 * serve answers the chat's calls from a conversation kept in memory (newest first), and records the writes.
 * The channel with Ada is found by her id (peerId), never among the first page of the list.
 */
function serve(messages: ChatMessage[], { hasChannel = true } = {}) {
  const writes: { method: string; path: string; body: unknown }[] = []
  let list = messages
  const calls = stubFetch(async (method, path, req) => {
    const body = req.headers.get('Content-Type')?.includes('json') ? ((await req.json()) as Record<string, unknown>) : undefined
    if (method !== 'GET') writes.push({ method, path, body })
    if (path.startsWith('/api/channels/private?')) {
      const peerId = new URL(path, 'http://x').searchParams.get('peerId')
      if (!peerId) return json(200, { results: newer, total: hasChannel ? 101 : 100 })
      return json(200, hasChannel && peerId === ADA ? { results: [channel(peer(ADA, 'Ada', 'away'))], total: 1 } : { results: [], total: 0 })
    }
    if (path.startsWith(`/api/channels/private/${CHANNEL}/threads`)) {
      const before = new URL(path, 'http://x').searchParams.get('createdBefore')
      const page = list.filter((m) => !before || m.createdOn < before).slice(0, 20)
      return json(200, { results: page, total: list.length })
    }
    if (method === 'POST' && path === '/api/sas')
      return json(201, { id: 'u1', url: 'http://localhost/blob/put/u1', method: 'PUT', expiresOn: '2026-11-25T00:00:00.000Z', maxSize: 3 })
    if (path === `/api/channels/private/${CHANNEL}/seen`) return new Response(null, { status: 204 })
    if (method === 'POST' && path === '/api/threads/private') {
      const m = message('new', { raw: body!.raw as string, image: (body!.image as ChatMessage['image']) ?? null, isMine: true, creatorId: ME, createdOn: '2026-11-25T00:00:00.000Z' })
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
  return {
    calls,
    writes,
    /** write has Ada write: the channel exists from then on. */
    write: (m: ChatMessage) => {
      hasChannel = true
      list = [m, ...list]
    },
  }
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
    // The shared editor cuts at 800 characters (code points, as the server counts).
    await userEvent.click(box)
    await userEvent.paste('x'.repeat(801))
    expect(box).toHaveValue('x'.repeat(800))
    expect(within(screen.getByTestId('chat-editor')).getByTestId('chat-counter')).toHaveTextContent('800/800')
    await userEvent.clear(box)
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

  it('attaches an image uploaded through POST /api/sas and sends it without text', async () => {
    const { writes } = serve([message('m1')])
    // The bytes go to the signed URL by XMLHttpRequest (for its progress); it answers the upload.
    class FakeXhr {
      status = 0
      responseText = ''
      responseType = ''
      upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null }
      onload: (() => void) | null = null
      onerror: (() => void) | null = null
      onabort: (() => void) | null = null
      open(method: string, url: string) {
        puts.push(`${method} ${url}`)
      }
      setRequestHeader() {}
      abort() {}
      send() {
        this.status = 201
        this.responseText = JSON.stringify({ id: 'u1', type: 'image', name: 'a.png', url: 'http://localhost/blob/u1.png', mediaType: 'image/png', size: 3 })
        setTimeout(() => this.onload?.(), 0)
      }
    }
    const puts: string[] = []
    vi.stubGlobal('XMLHttpRequest', FakeXhr)
    await renderInApp(<Conversation peer={ada} />)
    await screen.findByText('message m1')
    await userEvent.upload(screen.getByTestId('chat-image-input'), new File(['png'], 'a.png', { type: 'image/png' }))
    expect(await screen.findByRole('button', { name: 'Remove the image' })).toBeInTheDocument()
    expect(puts).toEqual(['PUT http://localhost/blob/put/u1'])
    expect(writes).toContainEqual({ method: 'POST', path: '/api/sas', body: { kind: 'image', name: 'a.png', size: 3, mediaType: 'image/png' } })
    await userEvent.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() =>
      expect(writes.filter((w) => w.path === '/api/threads/private').map((w) => w.body)).toEqual([{ memberIds: [ADA], raw: '', image: { url: 'http://localhost/blob/u1.png' } }]),
    )
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove the image' })).toBeNull())
  })

  it('says why a message was not sent, and keeps it', async () => {
    serve([message('m1')])
    await renderInApp(<Conversation peer={ada} />)
    await screen.findByText('message m1')
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ code: 'forbidden', message: 'no' }), { status: 403, headers: { 'Content-Type': 'application/json' } }))
    const box = screen.getByRole('textbox', { name: 'Message' })
    await userEvent.type(box, 'Still there?{Enter}')
    expect(await screen.findByRole('alert')).toHaveTextContent('You can no longer write to this member.')
    expect(box).toHaveValue('Still there?')
  })

  it('marks the conversation seen again when the peer’s message arrives live while it is open', async () => {
    const { writes } = serve([message('m1')])
    const { queryClient } = await renderInApp(<Conversation peer={ada} />)
    await screen.findByText('message m1')
    const seen = () => writes.filter((w) => w.path.endsWith('/seen')).length
    await waitFor(() => expect(seen()).toBe(1))
    act(() => {
      applyChatEvent(queryClient, { type: 'api:messages:broadcast', contextKey: `channel:${CHANNEL}`, event: 'thread.created', data: { payload: message('m2', { raw: 'live!', createdOn: at(30) }) } })
    })
    expect(await screen.findByText('live!')).toBeInTheDocument()
    await waitFor(() => expect(seen()).toBe(2))
  })

  it('finds the channel with the peer by their id, however many newer channels the member has', async () => {
    const { calls } = serve([message('m1', { raw: 'from long ago' })])
    await renderInApp(<Conversation peer={ada} />)
    expect(await screen.findByText('from long ago')).toBeInTheDocument()
    const lists = calls.map((c) => new URL(c.url)).filter((u) => u.pathname === '/api/channels/private')
    expect(lists.map((u) => u.searchParams.get('peerId'))).toEqual([ADA])
  })

  it('shows the peer’s first message arriving live while the conversation is open, and follows the seen mark', async () => {
    const { write, writes } = serve([], { hasChannel: false })
    const { queryClient } = await renderInApp(<Conversation peer={ada} />)
    expect(await screen.findByText('Write the first message to Ada.')).toBeInTheDocument()
    const first = message('m1', { raw: 'Hi there', createdOn: at(30) })
    write(first)
    act(() => {
      applyChatEvent(queryClient, { type: 'api:messages:broadcast', contextKey: `channel:${CHANNEL}`, event: 'thread.created', data: { payload: first } })
    })
    expect(await screen.findByText('Hi there')).toBeInTheDocument()
    expect(screen.queryByText('Write the first message to Ada.')).toBeNull()
    await waitFor(() => expect(writes.filter((w) => w.path.endsWith('/seen'))).toHaveLength(1))
    // The conversation's channel follows its latest message and the seen mark, as the list does.
    const own = () => queryClient.getQueryData<PrivateChannelList>(chatKeys.peerChannel(ADA))?.results[0]
    await waitFor(() => expect(own()?.lastSeenOn).not.toBeNull())
    act(() => {
      applyChatEvent(queryClient, { type: 'api:messages:broadcast', contextKey: `channel:${CHANNEL}`, event: 'thread.created', data: { payload: message('m2', { raw: 'Again', createdOn: at(31) }) } })
    })
    expect(own()).toMatchObject({ hasUnread: true, latestThread: { id: 'm2', raw: 'Again' } })
  })

  it('invites a first message when there is no channel with the peer yet', async () => {
    serve([], { hasChannel: false })
    await renderInApp(<Conversation peer={ada} />)
    expect(await screen.findByText('Write the first message to Ada.')).toBeInTheDocument()
  })
})
