import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import type { User } from '@/api/client'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { ProfilePage } from '../components/profile-page'
import { clampCrop, placement } from '../lib/crop'
import { profileBody, validateProfile, valuesOf } from '../lib/profile-form'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const me: User = {
  id: '0190a000-0000-7000-8000-000000000021',
  email: 'me@example.test',
  firstName: 'Mia',
  lastName: 'Member',
  avatar: null,
  role: 'user',
  jobTitle: 'Engineer',
  company: 'Acme',
  bio: '',
  interestTags: ['go'],
  school: '',
  degree: '',
  fieldOfStudy: '',
  graduationYear: null,
  createdOn: '2026-01-01T00:00:00.000Z',
}

describe('the profile form’s rules (PATCH /users/me’s)', () => {
  const ok = valuesOf(me)
  it('accepts the person as they are, and sends trimmed text, the interests as a list and an empty year as null', () => {
    expect(validateProfile(ok)).toEqual({})
    expect(profileBody({ ...ok, firstName: '  Mia ', interests: 'go, rust ,, go', graduationYear: '' })).toMatchObject({
      firstName: 'Mia',
      interestTags: ['go', 'rust'],
      graduationYear: null,
    })
    expect(profileBody({ ...ok, graduationYear: '2019' }).graduationYear).toBe(2019)
  })
  it('refuses what the server refuses', () => {
    const keys = (v: Partial<typeof ok>) => Object.fromEntries(Object.entries(validateProfile({ ...ok, ...v })).map(([f, e]) => [f, 'key' in e ? e.key : e.message]))
    expect(keys({ firstName: '  ', lastName: 'x'.repeat(51) })).toEqual({ firstName: 'name', lastName: 'name' })
    expect(keys({ lastName: 'x'.repeat(50) })).toEqual({})
    expect(keys({ company: 'x'.repeat(101), school: 'a\u202Eb' })).toEqual({ company: 'line', school: 'unclean' })
    expect(keys({ bio: 'x'.repeat(1001) })).toEqual({ bio: 'bio' })
    expect(keys({ bio: 'x'.repeat(1000) })).toEqual({})
    expect(keys({ interests: Array.from({ length: 31 }, (_, i) => `t${i}`).join(',') })).toEqual({ interests: 'tags' })
    expect(keys({ interests: 'x'.repeat(41) })).toEqual({ interests: 'tag' })
    expect(keys({ graduationYear: '1899' })).toEqual({ graduationYear: 'year' })
    expect(keys({ graduationYear: '20x0' })).toEqual({ graduationYear: 'year' })
    expect(keys({ graduationYear: '2100' })).toEqual({})
  })
})

describe('the avatar crop', () => {
  it('covers the square at zoom 1 and keeps the image over it however far it is dragged', () => {
    const img = { width: 400, height: 200 }
    expect(placement(img, 100, { zoom: 1, x: 0, y: 0 })).toEqual({ x: -50, y: 0, w: 200, h: 100 })
    expect(clampCrop(img, 100, { zoom: 1, x: 500, y: 30 })).toEqual({ zoom: 1, x: 50, y: 0 })
    expect(placement(img, 100, { zoom: 2, x: 0, y: 0 })).toEqual({ x: -150, y: -50, w: 400, h: 200 })
  })
})

async function renderPage(respond: (body: Record<string, unknown>) => Response) {
  const calls = stubFetch(async (method, path, req) => {
    if (path === '/api/tokens/decode') return json(200, { user: me, role: 'user' })
    if (method === 'PATCH' && path === '/api/users/me') return respond((await req.clone().json()) as Record<string, unknown>)
    return json(404, { code: 'notFound', message: path })
  })
  const r = await renderInApp(<ProfilePage />)
  act(() => r.session.signedIn({ accessToken: 't', role: 'user', user: me }))
  return { ...r, calls }
}

describe('ProfilePage', () => {
  it('shows a rule broken on its field without asking the server', async () => {
    const { calls } = await renderPage(() => json(200, me))
    const first = await screen.findByLabelText('First name')
    await userEvent.clear(first)
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(first).toHaveAttribute('aria-invalid', 'true')
    expect(within(screen.getByTestId('profile-form')).getByRole('alert')).toHaveTextContent('Must be 1 to 50 characters.')
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false)
  })

  it('saves the fields, and shows the server’s field errors on their fields', async () => {
    let sent: Record<string, unknown> = {}
    const { session } = await renderPage((body) => {
      sent = body
      if (body.company === 'Refused Ltd') return json(400, { code: 'validationFailed', message: 'invalid', details: { fields: { company: 'is too long' } } })
      return json(200, { ...me, ...body })
    })
    await userEvent.clear(await screen.findByLabelText('Bio'))
    await userEvent.type(screen.getByLabelText('Bio'), 'Hello there')
    await userEvent.type(screen.getByLabelText('Interests'), ', rust')
    await userEvent.type(screen.getByLabelText('Graduation year'), '2019')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    // The answer becomes the session's copy (the top bar's).
    await waitFor(() => expect(session.get()).toMatchObject({ user: { bio: 'Hello there' } }))
    expect(sent).toMatchObject({ bio: 'Hello there', interestTags: ['go', 'rust'], graduationYear: 2019, firstName: 'Mia' })

    const company = screen.getByLabelText('Company')
    await userEvent.clear(company)
    await userEvent.type(company, 'Refused Ltd')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Is too long.')).toBeInTheDocument()
    expect(company).toHaveAttribute('aria-invalid', 'true')
  })
})
