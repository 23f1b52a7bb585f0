import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { signIn } from '@/test/factories'
import { ADA, BEN, ME, channel, meUser, peer } from '../test/fixtures'
import { NewMessageBubble } from './new-message-bubble'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const latest = (id: string, creatorId: string) => ({ id, creatorId, raw: 'hi', createdOn: '2026-11-24T09:00:00.000Z' })

function serve(dismissed: string[]) {
  const patches: unknown[] = []
  let data: Record<string, unknown> = { 'reminders.newMessages.dismissed': dismissed }
  const calls = stubFetch(async (method, path, req) => {
    if (path.startsWith('/api/channels/private?'))
      return json(200, {
        results: [
          channel(peer(ADA, 'Ada'), { id: 'c1', hasUnread: true, latestThread: latest('m-ada', ADA) }),
          channel(peer(BEN, 'Ben'), { id: 'c2', hasUnread: true, latestThread: latest('m-ben', BEN) }),
          channel(peer('0190a000-0000-7000-8000-0000000000cc', 'Cy'), { id: 'c3', hasUnread: false, latestThread: latest('m-cy', ME) }),
        ],
        total: 3,
      })
    if (path === `/api/users/${ME}/personalization`) {
      if (method === 'PATCH') {
        const body = (await req.json()) as Record<string, unknown>
        patches.push(body)
        data = { ...data, ...body }
      }
      return json(200, data)
    }
    return json(404, { code: 'notFound', message: 'no' })
  })
  return { calls, patches }
}

async function render(panelOpen: boolean, onView = () => {}) {
  const r = await renderInApp(<NewMessageBubble panelOpen={panelOpen} onView={onView} />)
  signIn(r.session, meUser)
  return r
}

describe('NewMessageBubble', () => {
  it('shows the unread latest messages not dismissed while the panel is closed; Dismiss stores their ids and hides it', async () => {
    const { patches } = serve(['m-ada'])
    await render(false)
    const bubble = await screen.findByTestId('new-message-bubble')
    expect(bubble).toHaveTextContent('You have a new message')
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }))
    await waitFor(() => expect(patches).toEqual([{ 'reminders.newMessages.dismissed': ['m-ada', 'm-ben'] }]))
    await waitFor(() => expect(screen.queryByTestId('new-message-bubble')).toBeNull())
  })

  it('opens the chat with View', async () => {
    serve([])
    const onView = vi.fn()
    await render(false, onView)
    expect(await screen.findByText('You have new messages from 2 members')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'View' }))
    expect(onView).toHaveBeenCalledOnce()
  })

  it('stays away while the panel is open, and when every unread message was dismissed', async () => {
    serve([])
    const open = await render(true)
    const loaded = (r: typeof open) => waitFor(() => expect(r.queryClient.getQueryData(['personalization', ME]) && r.queryClient.getQueryData(['chat', 'channels'])).toBeTruthy())
    await loaded(open)
    expect(screen.queryByTestId('new-message-bubble')).toBeNull()
    open.unmount()
    vi.unstubAllGlobals()
    serve(['m-ada', 'm-ben'])
    await loaded(await render(false))
    expect(screen.queryByTestId('new-message-bubble')).toBeNull()
  })
})
