import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { Peer } from '../api/types'
import { openChat } from '../lib/open-chat'
import { ADA, BEN, channel, meUser, peer } from '../test/fixtures'
import { ChatPanel } from './chat-panel'

afterEach(() => {
  vi.unstubAllGlobals()
  openChat(null)
})
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
// jsdom lacks what the criterion's select (Radix) calls on pointer down and on opening.
Element.prototype.hasPointerCapture ??= () => false
Element.prototype.releasePointerCapture ??= () => {}
Element.prototype.scrollIntoView ??= () => {}

function serve(peers: Peer[], { unread = [] as string[] } = {}) {
  return stubFetch((_m, path) => {
    if (path.startsWith('/api/peers')) {
      const page = Number(new URL(path, 'http://x').searchParams.get('page'))
      return json(200, { results: peers.slice((page - 1) * 25, page * 25), total: peers.length })
    }
    if (path.startsWith('/api/channels/private?')) return json(200, { results: unread.map((id) => channel(peers.find((p) => p.userId === id)!, { id: `c-${id}`, hasUnread: true })), total: unread.length })
    return json(404, { code: 'notFound', message: 'no' })
  })
}

async function render() {
  const r = await renderInApp(<ChatPanel peersKey={['peers']} meControls={<span>controls</span>} />)
  act(() => r.session.signedIn({ accessToken: 't', user: meUser, role: 'user' }))
  return r
}

describe('ChatList', () => {
  it('lists Me first, then the peers with their presence and a red dot where a chat is unread', async () => {
    serve([peer(ADA, 'Ada', 'online'), peer(BEN, 'Ben', 'do-not-disturb'), peer('0190a000-0000-7000-8000-0000000000cc', 'Cy')], { unread: [BEN] })
    await render()
    expect(within(screen.getByTestId('chat-me')).getByText('Me')).toBeInTheDocument()
    expect(screen.getByText('controls')).toBeInTheDocument()
    const rows = await screen.findAllByTestId('peer')
    expect(rows.map((r) => within(r).getByTestId('peer-name').textContent)).toEqual(['Ada L', 'Ben L', 'Cy L'])
    expect(rows[0]).toHaveTextContent('Engineer · Acme')
    expect(within(rows[0]!).getByRole('img', { name: 'Online' })).toBeInTheDocument()
    expect(within(rows[1]!).getByRole('img', { name: 'Do not disturb' })).toBeInTheDocument()
    expect(within(rows[2]!).queryByRole('img')).toBeNull()
    await waitFor(() => expect(within(rows[1]!).getByRole('img', { name: 'Unread messages' })).toBeInTheDocument())
    expect(within(rows[0]!).queryByRole('img', { name: 'Unread messages' })).toBeNull()
  })

  it('searches with the criterion chosen, shows the watermark when no one matches, and pages 25 at a time', async () => {
    const many = Array.from({ length: 30 }, (_, i) => peer(`0190a000-0000-7000-8000-0000000001${String(i).padStart(2, '0')}`, `P${i}`))
    const calls = serve(many)
    await render()
    expect(await screen.findAllByTestId('peer')).toHaveLength(25)
    await userEvent.click(screen.getByRole('button', { name: 'Show more' }))
    await waitFor(() => expect(screen.getAllByTestId('peer')).toHaveLength(30))
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull()
    const pages = calls.filter((c) => c.url.includes('/api/peers')).map((c) => new URL(c.url).searchParams)
    // (The first page may be asked twice: the test signs in after rendering.)
    expect(pages.map((p) => [p.get('page'), p.get('pageSize')]).at(-1)).toEqual(['2', '25'])
    expect(pages.every((p) => p.get('pageSize') === '25' && !p.has('q'))).toBe(true)

    const searches = serve([])
    await userEvent.click(screen.getByRole('combobox', { name: 'Search in' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Organization' }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Search members' }), 'acme')
    expect(await screen.findByText('No members')).toBeInTheDocument()
    const last = () => new URL(searches.filter((c) => c.url.includes('/api/peers')).at(-1)!.url).searchParams
    await waitFor(() => expect([last().get('q'), last().get('criterion'), last().get('page')]).toEqual(['acme', 'org', '1']))
    expect(screen.getByText('No members')).toBeInTheDocument()
  })

  it('opens the conversation with a peer, and back', async () => {
    serve([peer(ADA, 'Ada', 'online')])
    await render()
    await userEvent.click(await screen.findByRole('button', { name: /Ada L/ }))
    expect(screen.getByTestId('conversation-peer')).toHaveTextContent('Ada L')
    await userEvent.click(screen.getByRole('button', { name: 'Back to the members' }))
    expect(await screen.findByTestId('chat-list')).toBeInTheDocument()
  })
})
