import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Toaster } from '@/components/ui/toast'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { OrganizationPage } from './organization-page'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

afterEach(() => vi.unstubAllGlobals())

const org = { id: 'o1', name: 'Acme', image: null, role: 'admin', identityClient: 'https://idp.acme.test', numCommunities: 2, numMembers: 1, createdOn: '2026-01-01T00:00:00Z' }
const ann = { id: 'p1', userId: null, firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test', role: 'member', tags: ['ai'], jobTitle: '', company: '', avatar: null, status: 'invited' }
const bob = { ...ann, id: 'p2', userId: 'u2', firstName: 'Bob', email: 'bob@acme.test', tags: [], status: 'active' }

function serve(o: object = org) {
  const sent: { method: string; path: string; body: unknown }[] = []
  stubFetch(async (method, path, req) => {
    if (method === 'GET' && path === '/api/organizations/o1') return json(200, o)
    if (method === 'GET' && path.startsWith('/api/organizations/o1/profiles')) return json(200, { results: [ann, bob], total: 2 })
    if (method === 'POST' && path === '/api/organizations/o1/invitations') {
      sent.push({ method, path, body: await req.json() })
      return json(200, { invited: 1, skipped: 0 })
    }
    if (method === 'PUT' && path === '/api/organizations/o1/identity-client') {
      const body = await req.json()
      sent.push({ method, path, body })
      return body.issuer === 'http://idp.acme.test'
        ? json(400, { code: 'validationFailed', message: 'invalid', details: { fields: { issuer: 'must be an https URL' } } })
        : new Response(null, { status: 204 })
    }
    if (method === 'DELETE') {
      sent.push({ method, path, body: null })
      return new Response(null, { status: 204 })
    }
    if (method === 'PATCH') {
      sent.push({ method, path, body: await req.json() })
      return path === '/api/profiles/p1' ? json(409, { code: 'emailConflict', message: 'taken' }) : new Response(null, { status: 204 })
    }
    return json(404, { code: 'notFound', message: 'not found' })
  })
  return sent
}

describe('an organization’s pages', () => {
  it('shows the single sign-on status and saves a new name', async () => {
    const sent = serve()
    await renderInApp(<OrganizationPage organizationId="o1" view="settings" communities={() => null} />)
    expect(await screen.findByText('On: members sign in through https://idp.acme.test.')).toBeInTheDocument()
    const name = screen.getByLabelText('Name')
    await userEvent.clear(name)
    await userEvent.type(name, 'Acme Inc')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toEqual([{ method: 'PATCH', path: '/api/organizations/o1', body: { name: 'Acme Inc' } }]))
  }, 30_000)

  it('lists the members and edits one, showing a taken email on the form', async () => {
    const sent = serve()
    await renderInApp(<OrganizationPage organizationId="o1" view="members" communities={() => null} />)
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

  it('sends an invitation to a person without an account, and to no one else', async () => {
    const sent = serve()
    await renderInApp(
      <>
        <OrganizationPage organizationId="o1" view="members" communities={() => null} />
        <Toaster />
      </>,
    )
    expect(await screen.findByText('bob@acme.test')).toBeInTheDocument()
    // Bob has an account: nothing to send him.
    expect(screen.queryByRole('button', { name: 'Send an invitation to Bob Lee' })).toBeNull()
    // Ann was mailed one already: it is sent again.
    await userEvent.click(screen.getByRole('button', { name: 'Send the invitation again to Ann Lee' }))
    expect(await screen.findByText('An invitation was sent to ann@acme.test.')).toBeInTheDocument()
    expect(sent).toEqual([{ method: 'POST', path: '/api/organizations/o1/invitations', body: { profileIds: ['p1'] } }])
  }, 30_000)

  it('imports members from a file into the organization', async () => {
    serve()
    await renderInApp(<OrganizationPage organizationId="o1" view="members" communities={() => null} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Import from a file' }))
    expect(await screen.findByRole('dialog', { name: 'Import members' })).toBeInTheDocument()
    expect(screen.getByText('Add the people of a CSV or Excel file to Acme.')).toBeInTheDocument()
  }, 30_000)

  it('sets the single sign-on client, showing the server’s field errors, and turns it off', async () => {
    const sent = serve()
    await renderInApp(<OrganizationPage organizationId="o1" view="settings" communities={() => null} />)
    const form = within(await screen.findByTestId('identity-client-form'))
    const issuer = form.getByLabelText('Issuer URL')
    expect(issuer).toHaveValue('https://idp.acme.test')
    const save = form.getByRole('button', { name: 'Save the identity client' })
    expect(save).toBeDisabled()
    await userEvent.clear(issuer)
    await userEvent.type(issuer, 'http://idp.acme.test')
    await userEvent.type(form.getByLabelText('Client ID'), 'agora')
    await userEvent.type(form.getByLabelText('Client secret'), 's3cret')
    await userEvent.click(save)
    expect(await form.findByText('Must be an https URL.')).toBeInTheDocument()
    expect(issuer).toHaveAttribute('aria-invalid', 'true')

    await userEvent.clear(issuer)
    await userEvent.type(issuer, 'https://idp.acme.test')
    await userEvent.click(save)
    await waitFor(() => expect(sent).toHaveLength(2))
    expect(form.queryByText('Must be an https URL.')).toBeNull()
    await userEvent.click(form.getByRole('button', { name: 'Turn off single sign-on' }))
    await waitFor(() =>
      expect(sent).toEqual([
        { method: 'PUT', path: '/api/organizations/o1/identity-client', body: { issuer: 'http://idp.acme.test', clientId: 'agora', clientSecret: 's3cret' } },
        { method: 'PUT', path: '/api/organizations/o1/identity-client', body: { issuer: 'https://idp.acme.test', clientId: 'agora', clientSecret: 's3cret' } },
        { method: 'DELETE', path: '/api/organizations/o1/identity-client', body: null },
      ]),
    )
  }, 30_000)

  it('shows a member the single sign-on status without its form', async () => {
    serve({ ...org, role: 'member' })
    await renderInApp(<OrganizationPage organizationId="o1" view="settings" communities={() => null} />)
    expect(await screen.findByText('On: members sign in through https://idp.acme.test.')).toBeInTheDocument()
    expect(screen.queryByTestId('identity-client-form')).toBeNull()
  }, 30_000)
})
