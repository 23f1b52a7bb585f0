import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '@/api/client'
import { Toaster } from '@/components/ui/toast'
import { forumMember } from '@/test/factories'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { MembersDialog } from './members-dialog'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const member = (id: string, first: string, status: Schemas['InvitationStatus']) => forumMember(first, { id, userId: status === 'active' ? `u-${id}` : null, status })

// Ann has an account; Bo was imported and never mailed; Cy was mailed an invitation.
function serve() {
  let bo: Schemas['InvitationStatus'] = 'notInvited'
  const sent: { path: string; body: unknown }[] = []
  stubFetch(async (method, path, req) => {
    if (method === 'GET' && path.startsWith('/api/series/f1/members'))
      return json(200, { results: [member('p1', 'Ann', 'active'), member('p2', 'Bo', bo), member('p3', 'Cy', 'invited')], total: 3 })
    if (method === 'POST' && path === '/api/series/f1/invitations') {
      sent.push({ path, body: await req.json() })
      bo = 'invited'
      return json(200, { invited: 1, skipped: 0, alreadyInvited: 0 })
    }
    return json(404, { code: 'notFound', message: 'not found' })
  })
  return sent
}

const row = async (name: string) => (await screen.findAllByTestId('member-row')).find((r) => r.textContent?.includes(name))!

afterEach(() => vi.unstubAllGlobals())

describe('the forum members dialog', () => {
  it('labels those without an account Invited only once an invitation was mailed', async () => {
    serve()
    await renderInApp(<MembersDialog seriesId="f1" canInvite={false} open onOpenChange={() => {}} />)
    expect(within(await row('Bo')).getByText('Not invited yet')).toBeInTheDocument()
    expect(within(await row('Bo')).queryByText('Invited')).toBeNull()
    expect(within(await row('Cy')).getByText('Invited')).toBeInTheDocument()
    expect(within(await row('Ann')).queryByText(/invited/i)).toBeNull()
    // A member who is not an admin is offered no invitation to send.
    expect(screen.queryByRole('button', { name: /invitation/ })).toBeNull()
  })

  it('lets an admin invite the member not invited yet, whose label then turns to Invited', async () => {
    const sent = serve()
    await renderInApp(
      <>
        <MembersDialog seriesId="f1" canInvite open onOpenChange={() => {}} />
        <Toaster />
      </>,
    )
    expect(within(await row('Cy')).getByRole('button', { name: 'Send the invitation again to Cy Person' })).toBeInTheDocument()
    expect(within(await row('Ann')).queryByRole('button')).toBeNull()
    await userEvent.click(within(await row('Bo')).getByRole('button', { name: 'Send an invitation to Bo Person' }))
    expect(await screen.findByText('An invitation was sent to bo@example.test.')).toBeInTheDocument()
    expect(sent).toEqual([{ path: '/api/series/f1/invitations', body: { profileIds: ['p2'] } }])
    await waitFor(async () => expect(within(await row('Bo')).getByText('Invited')).toBeInTheDocument())
  })
})
