import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { forum as aForum, signIn } from '@/test/factories'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { Schemas } from '@/api/client'
import { ManageAccessDialog } from './manage-access-dialog'

afterEach(() => vi.unstubAllGlobals())

const ME = '00000000-0000-4000-8000-0000000000aa'
const forum = (o: Partial<Schemas['Forum']> = {}) =>
  aForum({ id: 'f1', context: { communityId: 'c1' }, role: 'admin', isSubscribed: false, mainChannelId: 'ch1', adminChannelId: 'ch2', ...o })

const person = (id: string, role: Schemas['ForumAssignableRole'] | null, o: Partial<Schemas['Assignable']> = {}): Schemas['Assignable'] => ({
  id,
  userId: `user-${id}`,
  firstName: id.toUpperCase(),
  lastName: 'Person',
  email: `${id}@demo.test`,
  avatar: null,
  jobTitle: '',
  company: '',
  assignedOn: role ? '2026-01-01T00:00:00.000Z' : null,
  isSubscribed: true,
  isExpert: role?.endsWith('expert') ?? false,
  role,
  isAssigned: role !== null,
  isComplimentary: false,
  status: o.userId === null ? 'notInvited' : 'active',
  ...o,
})

const preview = (n: number) => ({
  actor: { firstName: 'Me', lastName: 'Admin' },
  from: 'Demo Org',
  subject: 'You have access to Design Forum',
  description: 'Me Admin gave you access.',
  numExpectedRecipients: n,
  totalAssignees: n,
})

async function open(f: Schemas['Forum'], respond: Parameters<typeof stubFetch>[0]) {
  const calls = stubFetch(respond)
  const onOpenChange = vi.fn()
  const r = await renderInApp(<ManageAccessDialog forum={f} open onOpenChange={onOpenChange} />)
  signIn(r.session, { id: ME, email: 'me@demo.test', firstName: 'Me', lastName: 'Admin' })
  return { calls, onOpenChange }
}

const bodies = async (calls: Request[], method: string, path: string) =>
  Promise.all(calls.filter((c) => c.method === method && new URL(c.url).pathname === path).map((c) => c.clone().json()))

// Radix dialogs set pointer-events on the body while they open, which
// jsdom's style computation sees before the dialog's own layer is ready.
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

// Typing whole forms takes a while on a busy machine.
vi.setConfig({ testTimeout: 20_000 })

describe('Manage Access: a new individual (spec 001 §2, §5)', () => {
  it('checks the form, asks "Is this right?", then adds, assigns and invites', async () => {
    const { calls, onOpenChange } = await open(forum(), (method, path) => {
      if (method === 'POST' && path === '/api/communities/c1/profiles') return json(201, { id: 'p-new' })
      if (method === 'POST' && path === '/api/series/f1/assignments-invitations-preview') return json(200, preview(1))
      if (method === 'POST' && path === '/api/series/f1/assignments') return new Response(null, { status: 204 })
      if (method === 'POST' && path === '/api/series/f1/invitations') return json(200, { invited: 1, skipped: 0 })
      return json(404, { code: 'notFound', message: path })
    })
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getByRole('heading', { name: 'Manage Access' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /Add a new individual/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(screen.getAllByText('Required.')).toHaveLength(3)
    await userEvent.type(screen.getByLabelText('First name'), ' Nora ')
    await userEvent.type(screen.getByLabelText('Last name'), 'New')
    await userEvent.type(screen.getByLabelText('Email'), 'nora@')
    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(screen.getByText('This is not a valid email.')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Email'), 'demo.test')
    await userEvent.click(screen.getByRole('button', { name: 'Next' }))

    // The confirm: No goes back to the form, with what was typed.
    expect(screen.getByRole('heading', { name: 'Is this right?' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'No' }))
    expect(screen.getByLabelText('First name')).toHaveValue('Nora')
    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)
    await userEvent.click(screen.getByRole('button', { name: 'Yes' }))

    // The confirmation with the notice preview.
    expect(await screen.findByText('You have access to Design Forum')).toBeInTheDocument()
    expect(screen.getByText('1 person new to the forum receives this notice.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false))

    expect(await bodies(calls, 'POST', '/api/communities/c1/profiles')).toEqual([
      { firstName: 'Nora', lastName: 'New', email: 'nora@demo.test', roleId: 'member', sendInvitation: false },
    ])
    const state = { assignments: [{ roleId: 'member', assigneeIds: ['p-new'] }] }
    expect(await bodies(calls, 'POST', '/api/series/f1/assignments-invitations-preview')).toEqual([state])
    expect(await bodies(calls, 'POST', '/api/series/f1/assignments')).toEqual([state])
    expect(await bodies(calls, 'POST', '/api/series/f1/invitations')).toEqual([{ profileIds: ['p-new'] }])
  })

  it('finds a person the community already has, and says when they already have access', async () => {
    await open(forum(), (method, path) => {
      if (method === 'POST' && path === '/api/communities/c1/profiles') return json(409, { code: 'emailConflict', message: 'exists' })
      if (path.startsWith('/api/series/f1/assignables') && path.includes('isAssigned=false')) return json(200, { results: [], total: 0 })
      if (path.startsWith('/api/series/f1/assignables') && path.includes('isAssigned=true'))
        return json(200, { results: [person('ann', 'member', { email: 'Ann@demo.test' })], total: 1 })
      return json(404, { code: 'notFound', message: path })
    })
    await userEvent.click(screen.getByRole('button', { name: /Add a new individual/ }))
    await userEvent.type(screen.getByLabelText('First name'), 'Ann')
    await userEvent.type(screen.getByLabelText('Last name'), 'Person')
    await userEvent.type(screen.getByLabelText('Email'), 'ann@demo.test')
    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    await userEvent.click(screen.getByRole('button', { name: 'Yes' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Ann Person already has access to this forum.')
  })
})

describe('Manage Access: existing members (spec 001 §4, §5, §6)', () => {
  const members = [person('me', 'admin', { userId: ME }), person('ada', 'admin'), person('bob', 'member')]
  const respond =
    (list: Schemas['Assignable'][], total = list.length, admins = ['ada']): Parameters<typeof stubFetch>[0] =>
    (method, path) => {
      if (path.startsWith('/api/series/f1/assignables')) {
        const kw = new URL('http://x' + path).searchParams.get('keyword')
        const found = kw ? list.filter((a) => a.email.includes(kw)) : list
        return json(200, { results: found, total: kw ? found.length : total })
      }
      // The user administers the community, not the forum: the forum's admin is Ada.
      if (path.startsWith('/api/series/f1/members')) return json(200, { results: [], total: 0 })
      if (path === '/api/series/f1/admin-count') return json(200, { selfExclusiveAdminSet: admins })
      if (method === 'POST' && path === '/api/series/f1/assignments-invitations-preview') return json(200, preview(0))
      return json(404, { code: 'notFound', message: path })
    }

  it('locks the own row, keeps the last admin an admin, and enables Confirm only on a change', async () => {
    await open(forum(), respond(members))
    await userEvent.click(screen.getByRole('button', { name: /Existing members/ }))
    const rows = await screen.findAllByTestId('existing-row')
    expect(rows).toHaveLength(3)
    // Ten or fewer: no search box.
    expect(screen.queryByRole('searchbox')).toBeNull()
    expect(within(rows[0]!).getByTestId('own-row')).toHaveTextContent('Admin · You')
    expect(within(rows[0]!).queryByRole('combobox')).toBeNull()

    // Ada is the only admin left: her menu holds the admin roles only.
    const ada = screen.getByRole('combobox', { name: 'Role of ADA Person' })
    await waitFor(() => expect(within(ada).getAllByRole('option').map((o) => o.textContent)).toEqual(['Admin', 'Admin, expert']))
    expect(screen.getByText('The last admin keeps an admin role.')).toBeInTheDocument()

    const bob = screen.getByRole('combobox', { name: 'Role of BOB Person' })
    expect(within(bob).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Admin',
      'Member',
      'Admin, expert',
      'Member, expert',
      'Remove access',
    ])
    const confirm = screen.getByRole('button', { name: 'Confirm' })
    expect(confirm).toBeDisabled()
    await userEvent.selectOptions(bob, 'member-expert')
    expect(confirm).toBeEnabled()
    await userEvent.selectOptions(bob, 'member')
    expect(confirm).toBeDisabled()
    await userEvent.selectOptions(bob, 'remove')
    expect(confirm).toBeEnabled()
    await userEvent.click(confirm)
    expect(await screen.findByText('1 person loses access.')).toBeInTheDocument()
  })

  it('switches a member’s complimentary access at once in a paid forum, not an admin’s or the user’s own', async () => {
    let bobComplimentary = false
    const sent: string[] = []
    const base = respond(members)
    await open(forum({ isFree: false, price: 1500 }), (method, path, req) => {
      if (path.startsWith('/api/series/f1/assignables'))
        return json(200, { results: members.map((m) => (m.id === 'bob' ? { ...m, isComplimentary: bobComplimentary } : m)), total: 3 })
      if ((method === 'PUT' || method === 'DELETE') && path === '/api/series/f1/profiles/bob/complimentary') {
        sent.push(method)
        bobComplimentary = method === 'PUT'
        return new Response(null, { status: 204 })
      }
      return base(method, path, req)
    })
    await userEvent.click(screen.getByRole('button', { name: /Existing members/ }))
    const bob = await screen.findByRole('switch', { name: 'Complimentary access for BOB Person' })
    expect(screen.getAllByRole('switch')).toHaveLength(1)
    expect(bob).not.toBeChecked()
    await userEvent.click(bob)
    await waitFor(() => expect(sent).toEqual(['PUT']))
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Complimentary access for BOB Person' })).toBeChecked())
    // Nothing was staged: Confirm stays off.
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled()
    await userEvent.click(screen.getByRole('switch', { name: 'Complimentary access for BOB Person' }))
    await waitFor(() => expect(sent).toEqual(['PUT', 'DELETE']))
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Complimentary access for BOB Person' })).not.toBeChecked())
  })

  it('shows no complimentary switch in a free forum', async () => {
    await open(forum(), respond(members))
    await userEvent.click(screen.getByRole('button', { name: /Existing members/ }))
    await screen.findAllByTestId('existing-row')
    expect(screen.queryByRole('switch')).toBeNull()
  })

  it('hides removal and shows the notice when the forum is open', async () => {
    await open(forum({ exclusivity: 'open' }), respond(members, 3, ['ada', 'bob']))
    expect(screen.getByText("Access Can't Be Changed")).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /Existing members/ }))
    const bob = await screen.findByRole('combobox', { name: 'Role of BOB Person' })
    expect(within(bob).queryByRole('option', { name: 'Remove access' })).toBeNull()
    expect(screen.getByText("Access Can't Be Changed")).toBeInTheDocument()
  })

  it('shows the search box past ten members, and the watermark when nobody matches', async () => {
    await open(forum(), respond(members, 11))
    await userEvent.click(screen.getByRole('button', { name: /Existing members/ }))
    const search = await screen.findByRole('searchbox', { name: 'Search by name or email' })
    await userEvent.type(search, 'nobody')
    expect(
      await screen.findByText("We can't find who you are looking for. Contact your Forum moderator if you think someone is missing."),
    ).toBeInTheDocument()
  })

  it('labels the members without an account truthfully and invites the one not invited yet at once', async () => {
    // Cy was imported and never mailed; Dee was mailed an invitation.
    let cy: Schemas['InvitationStatus'] = 'notInvited'
    const { calls } = await open(forum(), (method, path) => {
      if (method === 'POST' && path === '/api/series/f1/invitations') {
        cy = 'invited'
        return json(200, { invited: 1, skipped: 0, alreadyInvited: 0 })
      }
      const list = [...members, person('cy', 'member', { userId: null, status: cy }), person('dee', 'member', { userId: null, status: 'invited' })]
      return respond(list)(method, path, new Request('http://x' + path))
    })
    await userEvent.click(screen.getByRole('button', { name: /Existing members/ }))
    const row = async (name: string) => (await screen.findAllByTestId('existing-row')).find((r) => r.textContent?.includes(name))!
    expect(within(await row('CY')).getByText('Not invited yet')).toBeInTheDocument()
    expect(within(await row('DEE')).getByText('Invited')).toBeInTheDocument()
    expect(within(await row('BOB')).queryByText(/invited/i)).toBeNull()
    await userEvent.click(within(await row('CY')).getByRole('button', { name: 'Send an invitation to CY Person' }))
    expect(await bodies(calls, 'POST', '/api/series/f1/invitations')).toEqual([{ profileIds: ['cy'] }])
    await waitFor(async () => expect(within(await row('CY')).getByText('Invited')).toBeInTheDocument())
  })

  it('shows assignablesLoading when the list cannot be read', async () => {
    await open(forum(), (_m, path) => (path.startsWith('/api/series/f1/assignables') ? json(403, { code: 'forbidden', message: 'no' }) : json(200, { results: [], total: 0 })))
    await userEvent.click(screen.getByRole('button', { name: /Existing members/ }))
    expect(await screen.findByText('The members could not be loaded.')).toBeInTheDocument()
  })
})

describe('Manage Access: community members (spec 001 §5, §6)', () => {
  it('stages the selected people with the chosen role; Confirm waits for a selection', async () => {
    const { calls } = await open(forum(), (method, path) => {
      if (path.startsWith('/api/series/f1/assignables')) return json(200, { results: [person('cy', null, { userId: null }), person('dee', null)], total: 2 })
      if (method === 'POST' && path === '/api/series/f1/assignments-invitations-preview') return json(200, preview(2))
      return json(404, { code: 'notFound', message: path })
    })
    await userEvent.click(screen.getByRole('button', { name: /Add community members/ }))
    const confirm = screen.getByRole('button', { name: 'Confirm' })
    expect(confirm).toBeDisabled()
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Give access to CY Person' }))
    await userEvent.click(screen.getByRole('checkbox', { name: 'Give access to DEE Person' }))
    await userEvent.click(screen.getByRole('radio', { name: 'Moderators' }))
    expect(confirm).toBeEnabled()
    await userEvent.click(confirm)
    await screen.findByText('2 people get a role.')
    expect(await bodies(calls, 'POST', '/api/series/f1/assignments-invitations-preview')).toEqual([
      { assignments: [{ roleId: 'admin', assigneeIds: ['cy', 'dee'] }] },
    ])
    expect(calls.some((c) => new URL(c.url).searchParams.get('isAssigned') === 'false' && new URL(c.url).searchParams.get('pageSize') === '25')).toBe(true)
  })
})

describe('Manage Access: the member search of the community step (spec 000 §2.7)', () => {
  const ada = { id: 'ada', userId: 'user-ada', firstName: 'Ada', lastName: 'Lovelace', avatar: null, jobTitle: '', company: '' }
  const bob = { id: 'bob', userId: 'user-bob', firstName: 'Bob', lastName: 'Lovelace', avatar: null, jobTitle: '', company: '' }
  const respond: Parameters<typeof stubFetch>[0] = (method, path) => {
    const u = new URL('http://x' + path)
    if (u.pathname === '/api/communities/c1/member-search')
      return json(200, u.searchParams.get('q') === 'Nobody Here' ? { results: [], total: 0 } : { results: [ada, bob], total: 2 })
    if (u.pathname === '/api/series/f1/assignables') {
      // Ada is not in the forum yet; Bob is.
      const all = u.searchParams.get('isAssigned') === 'false' ? [person('ada', null, { firstName: 'Ada', lastName: 'Lovelace' })] : []
      return json(200, { results: all, total: all.length })
    }
    if (method === 'POST' && path === '/api/series/f1/assignments-invitations-preview') return json(200, preview(1))
    return json(404, { code: 'notFound', message: path })
  }

  it('stages a match as the checkbox would; someone already in the forum is not staged', async () => {
    const { calls } = await open(forum(), respond)
    await userEvent.click(screen.getByRole('button', { name: /Add community members/ }))
    // An empty box shows the paged list.
    expect(await screen.findByRole('checkbox', { name: 'Give access to Ada Lovelace' })).toBeInTheDocument()
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search members by name' }), 'Lovelase')
    const list = await screen.findByRole('list', { name: 'Matching members' })
    expect(screen.queryByTestId('assignable-row')).toBeNull()
    await userEvent.click(within(list).getByRole('button', { name: /Bob Lovelace/ }))
    expect(await screen.findByTestId('member-search-notice')).toHaveTextContent('Bob Lovelace already has access to this forum.')
    await userEvent.click(within(list).getByRole('button', { name: /Ada Lovelace/ }))
    await waitFor(() => expect(within(list).getByRole('button', { name: /Ada Lovelace/ })).toHaveAttribute('aria-pressed', 'true'))
    expect(screen.getByText('1 selected')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    await screen.findByText('1 person gets a role.')
    expect(await bodies(calls, 'POST', '/api/series/f1/assignments-invitations-preview')).toEqual([{ assignments: [{ roleId: 'member', assigneeIds: ['ada'] }] }])
  })

  it('opens the new individual form with the typed name when nobody matches', async () => {
    await open(forum(), respond)
    await userEvent.click(screen.getByRole('button', { name: /Add community members/ }))
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search members by name' }), 'Nobody Here')
    await userEvent.click(await screen.findByRole('button', { name: 'Add new member' }))
    expect(screen.getByLabelText('First name')).toHaveValue('Nobody')
    expect(screen.getByLabelText('Last name')).toHaveValue('Here')
    expect(screen.getByLabelText('Email')).toHaveValue('')
  })
})
