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

const person = (id: string, firstName: string, role: 'admin' | 'member' | null, isMe = false): CommunityAssignable => ({
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
})

function serve() {
  const sent: { path: string; body: unknown }[] = []
  stubFetch(async (method, path, req) => {
    if (method === 'GET' && path.startsWith('/api/communities/c1/assignables'))
      return json(200, { results: [person('me', 'Me', 'admin', true), person('p1', 'Ann', 'member'), person('p2', 'Bob', null)], total: 3 })
    if (method === 'GET' && path === '/api/communities/c1/roles') return json(200, [{ id: 'admin', name: 'Admin' }, { id: 'member', name: 'Member' }])
    if (method === 'POST') {
      sent.push({ path, body: await req.json() })
      return json(200, { changed: 2 })
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

  it('sends a member’s own choice, and counts only the members chosen', async () => {
    const sent = serve()
    await renderInApp(<ShareDialog community={community} open onOpenChange={() => {}} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Bob Lee: No access' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Member' }))
    await userEvent.click(screen.getByTestId('share-save'))
    expect(await screen.findByText('Access changes for 1 person.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Update' }))
    await waitFor(() => expect(sent).toEqual([{ path: '/api/communities/c1/assignments', body: [{ roleId: 'member', assigneeIds: ['p2'] }] }]))
  }, 30_000)
})
