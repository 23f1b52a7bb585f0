import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { TooltipProvider } from '@/components/ui/tooltip'
import { applyChatEvent } from '@/features/chat/lib/chat-cache'
import { openChat } from '@/features/chat/lib/open-chat'
import { ADA, CHANNEL, channel, message, meUser, peer } from '@/features/chat/test/fixtures'
import { useCurrentUser } from '@/lib/session-context'
import { signIn } from '@/test/factories'
import { json, renderInApp, stubFetch, stubLayout } from '@/test/utils'
import { RightPanel, setPanel } from './right-panel'

// The docked panel's chat icon (spec 002 §2, §4) carries the chat list's
// unread dot: a channel whose latest message is the peer's and not seen.
beforeEach(() => stubLayout())
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  openChat(null)
  setPanel({ expanded: false, tab: 'chat' })
})
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
Element.prototype.hasPointerCapture ??= () => false
Element.prototype.scrollIntoView ??= () => {}

const ada = peer(ADA, 'Ada', 'online')

function serve(hasUnread: boolean) {
  stubFetch((_m, path) => {
    if (path.startsWith('/api/channels/private?')) return json(200, { results: [channel(ada, { hasUnread })], total: 1 })
    if (path.startsWith('/api/peers')) return json(200, { results: [ada], total: 1 })
    if (path.startsWith('/api/users/')) return json(200, {})
    return json(404, { code: 'notFound', message: path })
  })
}

// As in the app, the panel is drawn for a signed-in member (signing in
// clears the query cache).
function SignedIn() {
  return useCurrentUser() ? <RightPanel context={{ beside: true, forumSelected: false, forumAdmin: false }} /> : null
}

async function render() {
  const r = await renderInApp(
    <TooltipProvider>
      <SignedIn />
    </TooltipProvider>,
  )
  signIn(r.session, meUser)
  return r
}

const dockedChat = () => within(screen.getByTestId('right-panel')).getByRole('button', { name: 'Chat' })

describe('the docked panel’s chat', () => {
  it('carries the unread dot while a conversation is unread, and none once every one is seen', async () => {
    serve(true)
    const r = await render()
    expect(screen.getByTestId('right-panel')).toHaveAttribute('data-state', 'docked')
    await waitFor(() => expect(within(dockedChat()).getByRole('img', { name: 'Unread messages' })).toBeInTheDocument())
    act(() => {
      applyChatEvent(r.queryClient, { type: 'api:messages:broadcast', contextKey: 'user:me', event: 'private.channel.seen', data: { payload: { channelId: CHANNEL, lastSeenOn: '2026-11-24T10:00:00.000Z' } } })
    })
    await waitFor(() => expect(within(dockedChat()).queryByRole('img')).toBeNull())
  })

  it('lights when the peer writes while the panel is collapsed, and the list shows the same dot on expanding', async () => {
    serve(false)
    setPanel({ expanded: true, tab: 'chat' })
    const r = await render()
    const row = await screen.findByRole('button', { name: /Ada L/ })
    expect(within(row).queryByRole('img', { name: 'Unread messages' })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Collapse the panel' }))
    expect(screen.getByTestId('right-panel')).toHaveAttribute('data-state', 'docked')
    expect(within(dockedChat()).queryByRole('img')).toBeNull()
    act(() => {
      applyChatEvent(r.queryClient, {
        type: 'api:messages:broadcast',
        contextKey: `channel:${CHANNEL}`,
        event: 'thread.created',
        data: { payload: message('m9', { raw: 'Are you there?', createdOn: '2026-11-24T10:00:00.000Z' }) },
      })
    })
    expect(await within(dockedChat()).findByRole('img', { name: 'Unread messages' })).toBeInTheDocument()
    await userEvent.click(dockedChat())
    const again = await screen.findByRole('button', { name: /Ada L/ })
    expect(within(again).getByRole('img', { name: 'Unread messages' })).toBeInTheDocument()
  })
})
