import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch, stubLayout } from '@/test/utils'
import { signIn } from '@/test/factories'
import type { Peer } from '../api/types'
import { openChat } from '../lib/open-chat'
import { ADA, BEN, channel, meUser, peer } from '../test/fixtures'
import { ChatPanel } from './chat-panel'

// The virtualised list's scroller has the height of ten rows.
const VIEW = 500
beforeEach(() => stubLayout(VIEW))
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
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
  signIn(r.session, meUser)
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

  it('shows only the rows in view, reads the next 25 when scrolled to the end, and searches with the criterion chosen; the watermark when no one matches', async () => {
    const many = Array.from({ length: 30 }, (_, i) => peer(`0190a000-0000-7000-8000-0000000001${String(i).padStart(2, '0')}`, `P${i}`))
    const calls = serve(many)
    await render()
    const rows = await screen.findAllByTestId('peer')
    // Ten rows in view and a few beyond: not all 25 of the first page.
    expect(rows.length).toBeGreaterThanOrEqual(10)
    expect(rows.length).toBeLessThan(25)
    expect(rows[0]!.closest('li')).toHaveAttribute('aria-setsize', '30')
    const pages = () => calls.filter((c) => c.url.includes('/api/peers')).map((c) => new URL(c.url).searchParams)
    expect(pages().every((p) => p.get('page') === '1')).toBe(true)

    const scroller = screen.getByTestId('peer-rows')
    const scrollTo = (top: number) => {
      scroller.scrollTop = top
      fireEvent.scroll(scroller)
    }
    scrollTo(25 * 50 - VIEW)
    await waitFor(() => expect(pages().at(-1)?.get('page')).toBe('2'))
    // (The first page may be asked twice: the test signs in after rendering.)
    expect(pages().every((p) => p.get('pageSize') === '25' && !p.has('q'))).toBe(true)
    scrollTo(30 * 50 - VIEW)
    expect(await screen.findByRole('button', { name: /^P29 L/ })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /^P0 L/ })).toBeNull()

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
