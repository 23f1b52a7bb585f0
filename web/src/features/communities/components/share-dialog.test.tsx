import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Toaster } from '@/components/ui/toast'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { Community, CommunityAssignable } from '../api/types'
import { ShareDialog } from './share-dialog'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const community = {
  id: 'c1',
  name: 'Leaders',
  permissions: { canManage: true, canShare: true, canUploadMembers: true },
} as Community

const person = (id: string, firstName: string, role: 'admin' | 'member' | null, isMe = false, isComplimentary = false): CommunityAssignable => ({
  id,
  userId: null,
  firstName,
  lastName: 'Lee',
  email: `${firstName.toLowerCase()}@example.com`,
  avatar: null,
  jobTitle: '',
  company: '',
  assignmentStatus: role ? 'active' : null,
  role: role && { id: role, name: role === 'admin' ? 'Admin' : 'Member' },
  assignedOn: null,
  isMe,
  isComplimentary,
})

function serve() {
  const sent: { path: string; body: unknown }[] = []
  stubFetch(async (method, path, req) => {
    if (method === 'GET' && path.startsWith('/api/communities/c1/assignables'))
      return json(200, { results: [person('me', 'Me', 'admin', true), person('p1', 'Ann', 'member'), person('p2', 'Bob', null)], total: 3 })
    if (method === 'GET' && path === '/api/communities/c1/roles') return json(200, [{ id: 'admin', name: 'Admin' }, { id: 'member', name: 'Member' }])
    if (method === 'POST') {
      sent.push({ path, body: await req.json() })
      return path.endsWith('/invitations') ? json(200, { invited: 1, skipped: 0 }) : json(200, { changed: 2 })
    }
    return json(404, { code: 'notFound', message: 'not found' })
  })
  return sent
}

afterEach(() => vi.unstubAllGlobals())

describe('the community share dialog', () => {
  it('gives everyone but the user a bulk role, confirms the number of people, and sends one bulk change', async () => {
    const sent = serve()
    await renderInApp(
      <>
        <ShareDialog community={community} open onOpenChange={() => {}} />
        <Toaster />
      </>,
    )
    expect(await screen.findByText('3 people')).toBeInTheDocument()
    const save = screen.getByTestId('share-save')
    expect(save).toBeDisabled()

    await userEvent.click(screen.getByTestId('bulk-menu'))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Admin' }))
    // The user's own row keeps its label and has no menu.
    const rows = screen.getAllByTestId('assignable-row')
    expect(within(rows[0]!).queryByRole('button')).toBeNull()
    expect(within(rows[2]!).getByRole('button', { name: 'Bob Lee: Admin' })).toBeInTheDocument()

    expect(save).toBeEnabled()
    await userEvent.click(save)
    expect(await screen.findByText('Access changes for 2 people.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Update' }))
    expect(await screen.findByText('Access updated for 2 people.')).toBeInTheDocument()
    expect(sent).toEqual([{ path: '/api/communities/c1/assignments/bulk', body: { roleId: 'admin' } }])
  }, 30_000)

  it('sends the members’ own choices, then mails the invitations of those given a role', async () => {
    const sent = serve()
    await renderInApp(<ShareDialog community={community} open onOpenChange={() => {}} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Bob Lee: No access' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Member' }))
    await userEvent.click(screen.getByRole('button', { name: 'Ann Lee: Member' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'No access' }))
    await userEvent.click(screen.getByTestId('share-save'))
    expect(await screen.findByText('Access changes for 2 people.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Update' }))
    await waitFor(() =>
      expect(sent).toEqual([
        {
          path: '/api/communities/c1/assignments',
          body: [
            { roleId: 'member', assigneeIds: ['p2'] },
            { roleId: null, assigneeIds: ['p1'] },
          ],
        },
        // Ann, removed, is not invited.
        { path: '/api/communities/c1/invitations', body: { profileIds: ['p2'] } },
      ]),
    )
  }, 30_000)

  it('lists by name Z to A, and a bulk change then selects by the filter alone', async () => {
    const sent = serve()
    await renderInApp(<ShareDialog community={community} open onOpenChange={() => {}} />)
    expect(await screen.findByText('3 people')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Sort by name, Z to A' }))
    expect(await screen.findByRole('button', { name: 'Sort by name, A to Z' })).toBeInTheDocument()
    const asked = vi.mocked(fetch).mock.calls.map(([r]) => new URL((r as Request).url))
    expect(asked.some((u) => u.pathname === '/api/communities/c1/assignables' && u.searchParams.get('sort') === 'name desc')).toBe(true)

    await userEvent.click(screen.getByTestId('bulk-menu'))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Member' }))
    await userEvent.click(screen.getByTestId('share-save'))
    await userEvent.click(await screen.findByRole('button', { name: 'Update' }))
    await waitFor(() => expect(sent).toEqual([{ path: '/api/communities/c1/assignments/bulk', body: { roleId: 'member' } }]))
  }, 30_000)
})

describe('complimentary access in the share dialog', () => {
  const paid = { ...community, isFree: false, price: 2500 } as Community

  function servePaid() {
    const calls: string[] = []
    let annComplimentary = false
    stubFetch(async (method, path) => {
      if (method === 'GET' && path.startsWith('/api/communities/c1/assignables'))
        return json(200, {
          results: [person('me', 'Me', 'admin', true), person('p1', 'Ann', 'member', false, annComplimentary), person('p3', 'Cy', 'admin'), person('p2', 'Bob', null)],
          total: 4,
        })
      if (method === 'GET' && path === '/api/communities/c1/roles') return json(200, [{ id: 'admin', name: 'Admin' }, { id: 'member', name: 'Member' }])
      if ((method === 'PUT' || method === 'DELETE') && path === '/api/communities/c1/profiles/p1/complimentary') {
        calls.push(`${method} ${path}`)
        annComplimentary = method === 'PUT'
        return new Response(null, { status: 204 })
      }
      return json(404, { code: 'notFound', message: 'not found' })
    })
    return calls
  }

  it('lets the admin give and take a member’s complimentary access in a paid community', async () => {
    const calls = servePaid()
    await renderInApp(<ShareDialog community={paid} open onOpenChange={() => {}} />)
    const ann = await screen.findByRole('switch', { name: 'Complimentary access for Ann Lee' })
    expect(ann).not.toBeChecked()
    // Not for the admin themselves, another admin (admins never pay) or someone without access.
    expect(screen.getAllByRole('switch')).toHaveLength(1)

    await userEvent.click(ann)
    await waitFor(() => expect(calls).toEqual(['PUT /api/communities/c1/profiles/p1/complimentary']))
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Complimentary access for Ann Lee' })).toBeChecked())

    await userEvent.click(screen.getByRole('switch', { name: 'Complimentary access for Ann Lee' }))
    await waitFor(() => expect(calls[1]).toBe('DELETE /api/communities/c1/profiles/p1/complimentary'))
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Complimentary access for Ann Lee' })).not.toBeChecked())
  })

  it('shows no switch in a free community', async () => {
    servePaid()
    await renderInApp(<ShareDialog community={{ ...community, isFree: true, price: 0 } as Community} open onOpenChange={() => {}} />)
    expect(await screen.findByText('4 people')).toBeInTheDocument()
    expect(screen.queryByRole('switch')).not.toBeInTheDocument()
  })

  it('labels the members without an account truthfully and invites the one not invited yet', async () => {
    // Ann was added by an import and never mailed; Cy was mailed an invitation (spec 000's pending).
    let ann: CommunityAssignable['assignmentStatus'] = 'notInvited'
    const sent: { path: string; body: unknown }[] = []
    stubFetch(async (method, path, req) => {
      if (method === 'GET' && path.startsWith('/api/communities/c1/assignables'))
        return json(200, {
          results: [person('me', 'Me', 'admin', true), { ...person('p1', 'Ann', 'member'), assignmentStatus: ann }, { ...person('p3', 'Cy', 'member'), assignmentStatus: 'pending' }],
          total: 3,
        })
      if (method === 'GET' && path === '/api/communities/c1/roles') return json(200, [{ id: 'admin', name: 'Admin' }, { id: 'member', name: 'Member' }])
      if (method === 'POST' && path === '/api/communities/c1/invitations') {
        sent.push({ path, body: await req.json() })
        ann = 'pending'
        return json(200, { invited: 1, skipped: 0, alreadyInvited: 0 })
      }
      return json(404, { code: 'notFound', message: 'not found' })
    })
    await renderInApp(
      <>
        <ShareDialog community={community} open onOpenChange={() => {}} />
        <Toaster />
      </>,
    )
    const row = async (name: string) => (await screen.findAllByTestId('assignable-row')).find((r) => r.textContent?.includes(name))!
    expect(within(await row('Ann')).getByText('Not invited yet')).toBeInTheDocument()
    expect(within(await row('Ann')).queryByText('Invited')).toBeNull()
    expect(within(await row('Cy')).getByText('Invited')).toBeInTheDocument()
    expect(within(await row('Cy')).getByRole('button', { name: 'Send the invitation again to Cy Lee' })).toBeInTheDocument()
    // The user's own row, with an account, has neither.
    expect(within(await row('Me')).queryByText(/invited/i)).toBeNull()

    await userEvent.click(within(await row('Ann')).getByRole('button', { name: 'Send an invitation to Ann Lee' }))
    expect(await screen.findByText('An invitation was sent to ann@example.com.')).toBeInTheDocument()
    expect(sent).toEqual([{ path: '/api/communities/c1/invitations', body: { profileIds: ['p1'] } }])
    await waitFor(async () => expect(within(await row('Ann')).getByText('Invited')).toBeInTheDocument())
    expect(within(await row('Ann')).queryByText('Not invited yet')).toBeNull()
  })
})
