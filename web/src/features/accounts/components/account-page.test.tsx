import { screen, waitFor } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { AccountPage } from './account-page'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

afterEach(() => vi.unstubAllGlobals())

const org = { id: 'o1', name: 'Acme', image: null, role: 'admin', identityClient: 'https://idp.acme.test', numCommunities: 2, numMembers: 1, createdOn: '2026-01-01T00:00:00Z' }
const ann = { id: 'p1', userId: null, firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test', role: 'member', tags: ['ai'], jobTitle: '', company: '', avatar: null, status: 'invited' }

function serve() {
  const sent: { method: string; path: string; body: unknown }[] = []
  stubFetch(async (method, path, req) => {
    if (method === 'GET' && path === '/api/organizations/o1') return json(200, org)
    if (method === 'GET' && path.startsWith('/api/organizations/o1/profiles')) return json(200, { results: [ann], total: 1 })
    if (method === 'PATCH') {
      sent.push({ method, path, body: await req.json() })
      return path === '/api/profiles/p1' ? json(409, { code: 'emailConflict', message: 'taken' }) : new Response(null, { status: 204 })
    }
    return json(404, { code: 'notFound', message: 'not found' })
  })
  return sent
}

describe('an account’s pages', () => {
  it('shows the single sign-on status and saves a new name', async () => {
    const sent = serve()
    await renderInApp(<AccountPage accountId="o1" view="settings" communities={() => null} />)
    expect(await screen.findByText('On: members sign in through https://idp.acme.test.')).toBeInTheDocument()
    const name = screen.getByLabelText('Name')
    await userEvent.clear(name)
    await userEvent.type(name, 'Acme Inc')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toEqual([{ method: 'PATCH', path: '/api/organizations/o1', body: { name: 'Acme Inc' } }]))
  }, 30_000)

  it('lists the members and edits one, showing a taken email on the form', async () => {
    const sent = serve()
    await renderInApp(<AccountPage accountId="o1" view="members" communities={() => null} />)
    expect(await screen.findByText('ann@acme.test · ai')).toBeInTheDocument()
    expect(screen.getByText('Invited')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Edit Ann Lee' }))
    const email = await screen.findByLabelText('Email')
    expect(email).toHaveValue('ann@acme.test')
    await userEvent.clear(email)
    await userEvent.type(email, 'bob@acme.test')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('A member with this email already exists.')).toBeInTheDocument()
    expect(sent).toEqual([{ method: 'PATCH', path: '/api/profiles/p1', body: { firstName: 'Ann', lastName: 'Lee', email: 'bob@acme.test', roleId: 'member', tags: ['ai'] } }])
  }, 30_000)
})
