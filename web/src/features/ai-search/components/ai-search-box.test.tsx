import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { signIn } from '@/test/factories'
import { Toaster } from '@/components/ui/toast'
import { AISearchBox } from './ai-search-box'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const CH = '00000000-0000-4000-8000-0000000000c1'
const SERIES = '00000000-0000-4000-8000-0000000000f1'
const S1 = '00000000-0000-4000-8000-00000000a001'
const POST = '00000000-0000-4000-8000-00000000b001'
const COMMENT = '00000000-0000-4000-8000-00000000b002'

/** A response body the test writes to line by line, as the server flushes them. */
function ndjsonStream() {
  const enc = new TextEncoder()
  let ctrl!: ReadableStreamDefaultController<Uint8Array>
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) })
  return {
    response: () => new Response(stream, { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } }),
    send: (e: object) => act(async () => ctrl.enqueue(enc.encode(JSON.stringify({ searchId: S1, ...e }) + '\n'))),
    close: () => act(async () => ctrl.close()),
  }
}

const sources = [
  { n: 1, id: POST, threadId: POST, channelId: CH, kind: 'post', excerpt: 'Design reviews happen on Fridays.' },
  { n: 2, id: COMMENT, threadId: POST, channelId: CH, kind: 'comment', excerpt: 'Bring two options to the review.' },
]

async function render() {
  const r = await renderInApp(
    <>
      <AISearchBox channelId={CH} communityId="c1" seriesId={SERIES} />
      <Toaster />
    </>,
  )
  return r
}

const box = () => screen.getByRole('searchbox', { name: 'Ask the AI about this forum' })
const followUp = () => screen.getByRole('textbox', { name: 'Ask a follow-up question' })

describe('AISearchBox (spec 001 §4 "AI search flow", §5)', () => {
  it('submits only non-empty text, streams the answer, links citations, and continues the search with a follow-up', async () => {
    const first = ndjsonStream()
    const second = ndjsonStream()
    const calls = stubFetch((_m, path) => {
      if (path.startsWith(`/api/ai/search/${CH}/${S1}?`)) return second.response()
      if (path.startsWith(`/api/ai/search/${CH}?`)) return first.response()
      return json(404, { code: 'notFound', message: path })
    })
    const { session } = await render()
    signIn(session, { id: 'u1', email: 'me@x.test', firstName: 'Me', lastName: 'Member' }, 'tok')
    const ask = screen.getByRole('button', { name: 'Ask' })
    expect(ask).toBeDisabled()
    await userEvent.type(box(), '   ')
    expect(ask).toBeDisabled()
    await userEvent.type(box(), 'When are design reviews?{Enter}')

    expect(await screen.findByText('Searching the forum…')).toBeInTheDocument()
    const req = calls.find((c) => c.url.includes('/api/ai/search/'))!
    expect(new URL(req.url).searchParams.get('q')).toBe('When are design reviews?')
    const conversation = screen.getByRole('list', { name: 'AI search conversation' })
    expect(conversation).toHaveAttribute('aria-live', 'polite')
    expect(conversation).toHaveAttribute('aria-busy', 'true')
    expect(followUp()).toBeDisabled()

    await first.send({ type: 'threads', posts: sources })
    expect(await screen.findByText('Writing the answer…')).toBeInTheDocument()
    await first.send({ type: 'completion', text: 'On Fridays [1]' })
    expect(await screen.findByTestId('ai-answer-text')).toHaveTextContent('On Fridays [1]')
    await first.send({ type: 'completion', text: ', with two options [2].' })
    await waitFor(() => expect(screen.getByTestId('ai-answer-text')).toHaveTextContent('On Fridays [1], with two options [2].'))
    expect(followUp()).toBeDisabled()

    await first.send({
      type: 'answer',
      answer: 'On Fridays [1], with two options [2].',
      citations: [POST, COMMENT],
      posts: sources,
      done: true,
      createdOn: '2026-05-01T10:00:00Z',
    })
    await first.close()
    await waitFor(() => expect(followUp()).toBeEnabled())
    expect(conversation).toHaveAttribute('aria-busy', 'false')
    // Each marker opens its post; a comment opens the post it is on.
    expect(screen.getByRole('link', { name: 'Source 1' })).toHaveAttribute('href', `/communities/c1/series/${SERIES}/posts/${POST}`)
    expect(screen.getByRole('link', { name: 'Source 2' })).toHaveAttribute('href', `/communities/c1/series/${SERIES}/posts/${POST}`)
    const list = within(screen.getByTestId('ai-sources'))
    expect(list.getByText('Design reviews happen on Fridays.')).toBeInTheDocument()
    expect(list.getByText('Comment')).toBeInTheDocument()

    // The follow-up goes to the same search, and the conversation shows both turns.
    const send = screen.getByRole('button', { name: 'Send' })
    expect(send).toBeDisabled()
    await userEvent.type(followUp(), 'Who runs them?{Enter}')
    await waitFor(() => expect(calls).toHaveLength(2))
    expect(new URL(calls[1]!.url).pathname).toBe(`/api/ai/search/${CH}/${S1}`)
    expect(new URL(calls[1]!.url).searchParams.get('q')).toBe('Who runs them?')
    expect(followUp()).toHaveValue('')
    expect(followUp()).toBeDisabled()
    await second.send({ type: 'threads', posts: [] })
    await second.send({ type: 'answer', answer: 'Nobody said.', citations: [], done: true })
    await second.close()
    await waitFor(() => expect(screen.getAllByTestId('ai-turn')).toHaveLength(2))
    expect(screen.getAllByTestId('ai-question').map((q) => q.textContent)).toEqual(['You: When are design reviews?', 'You: Who runs them?'])
    expect(await screen.findByText('Nobody said.')).toBeInTheDocument()
    // The extractive answerer answers even when nothing matched.
    expect(screen.getByTestId('ai-no-posts')).toHaveTextContent('No posts matched your question')
    // Both asked for the stream, with the session's bearer header.
    for (const c of calls) {
      expect(c.headers.get('Accept')).toBe('application/x-ndjson')
      expect(c.headers.get('Authorization')).toBe('Bearer tok')
    }
  })

  it('lists only the sources the answer cites, numbered as its final text cites them', async () => {
    const s = ndjsonStream()
    stubFetch(() => s.response())
    await render()
    await userEvent.type(box(), 'Who brings options?{Enter}')
    const other = { n: 3, id: '00000000-0000-4000-8000-00000000b003', threadId: '00000000-0000-4000-8000-00000000b003', channelId: CH, kind: 'post', excerpt: 'Lunch is pizza.' }
    await s.send({ type: 'threads', posts: [...sources, other] })
    await s.send({ type: 'completion', text: 'Bring two options [2].' })
    await s.send({ type: 'answer', answer: 'Bring two options [1].', citations: [COMMENT], posts: [{ ...sources[1]!, n: 1 }], done: true })
    await s.close()
    const list = within(await screen.findByTestId('ai-sources'))
    expect(list.getByText('Bring two options to the review.')).toBeInTheDocument()
    expect(list.queryByText('Design reviews happen on Fridays.')).toBeNull()
    expect(list.queryByText('Lunch is pizza.')).toBeNull()
    expect(screen.getByRole('link', { name: 'Source 1' })).toHaveAttribute('href', `/communities/c1/series/${SERIES}/posts/${POST}`)
    expect(screen.queryByRole('link', { name: 'Source 2' })).toBeNull()
  })

  it('shows the API message of a refused question, and a generic one otherwise', async () => {
    let status = 400
    stubFetch(() =>
      status === 400 ? json(400, { code: 'validationFailed', message: 'q must be at most 1000 characters' }) : json(500, { code: 'internal', message: 'boom' }),
    )
    await render()
    await userEvent.type(box(), 'Too long?{Enter}')
    expect(await screen.findByRole('alert')).toHaveTextContent('q must be at most 1000 characters')
    status = 500
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The AI search could not answer. Please try again.'))
    expect(screen.getByRole('alert')).not.toHaveTextContent('boom')
    expect(followUp()).toBeDisabled()
  })

  it('says when the stream ended without an answer', async () => {
    const s = ndjsonStream()
    stubFetch(() => s.response())
    await render()
    await userEvent.type(box(), 'Anything?{Enter}')
    await s.send({ type: 'threads', posts: sources })
    await s.send({ type: 'completion', text: 'Half an ans' })
    await s.close()
    expect(await screen.findByRole('alert')).toHaveTextContent('The answer was cut off.')
    expect(followUp()).toBeDisabled()
  })

  it('Clear stops a streaming answer and resets the question and the follow-up', async () => {
    const s = ndjsonStream()
    const calls = stubFetch(() => s.response())
    await render()
    await userEvent.type(box(), 'Stop me{Enter}')
    await s.send({ type: 'threads', posts: sources })
    await screen.findByText('Writing the answer…')
    await userEvent.click(screen.getAllByRole('button', { name: 'Clear' })[0]!)
    expect(box()).toHaveValue('')
    expect(screen.queryByTestId('ai-conversation')).toBeNull()
    await waitFor(() => expect(calls[0]!.signal.aborted).toBe(true))
  })

  it('shares the conversation, then clears it and refetches the feed', async () => {
    const s = ndjsonStream()
    const calls = stubFetch((method, path) => {
      if (method === 'POST' && path === '/api/ai-response/share-chat') return json(201, { id: 'p1', type: 'shared-ai-chat' })
      return s.response()
    })
    const { queryClient } = await render()
    queryClient.setQueryData(['channels', CH, 'threads'], { pages: [{ results: [] }], pageParams: [null] })
    await userEvent.type(box(), 'Share me{Enter}')
    const share = await screen.findByRole('button', { name: 'Share to the forum' })
    expect(share).toBeDisabled()
    await s.send({ type: 'threads', posts: sources })
    await s.send({ type: 'answer', answer: 'Yes [1].', citations: [POST], posts: [sources[0]], done: true })
    await s.close()
    await waitFor(() => expect(share).toBeEnabled())
    await userEvent.click(share)
    expect(await screen.findByText('The conversation was shared to the forum.')).toBeInTheDocument()
    const posted = calls.find((c) => c.method === 'POST')!
    expect(await posted.clone().json()).toEqual({ channelId: CH, searchId: S1 })
    expect(screen.queryByTestId('ai-conversation')).toBeNull()
    expect(box()).toHaveValue('')
    expect(queryClient.getQueryState(['channels', CH, 'threads'])?.isInvalidated).toBe(true)
  })
})
