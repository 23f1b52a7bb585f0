import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { Schemas } from '@/api/client'
import { EditForumDialog } from './edit-forum-dialog'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
// jsdom has no ResizeObserver, which Radix's switch measures itself with.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const forum = (o: Partial<Schemas['Forum']> = {}): Schemas['Forum'] => ({
  id: 'f1',
  name: 'Design Forum',
  description: 'About design',
  image: null,
  exclusivity: 'inviteOnly',
  shareEnabled: false,
  position: 0,
  context: { communityId: 'c1' },
  role: 'admin',
  isSubscribed: true,
  createdOn: '2026-01-01T00:00:00.000Z',
  updatedOn: '2026-01-01T00:00:00.000Z',
  mainChannelId: 'ch1',
  adminChannelId: 'ch2',
  ...o,
})

describe('EditForumDialog (spec 001 §4, §5)', () => {
  it('shows the rules next to the fields and sends nothing until they hold', async () => {
    const calls = stubFetch((_m, _p, req) => req.clone().json().then((b) => json(200, forum(b as Partial<Schemas['Forum']>))))
    const onOpenChange = vi.fn()
    await renderInApp(<EditForumDialog forum={forum()} open onOpenChange={onOpenChange} />)
    await userEvent.clear(screen.getByLabelText('Name'))
    await userEvent.type(screen.getByLabelText('Name'), '   ')
    await userEvent.type(screen.getByLabelText('Image URL'), 'not-a-link')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.getByText('Required.')).toBeInTheDocument()
    expect(screen.getByText('This is not a valid http(s) link.')).toBeInTheDocument()
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true')
    expect(calls).toHaveLength(0)

    await userEvent.type(screen.getByLabelText('Name'), ' New name ')
    await userEvent.clear(screen.getByLabelText('Image URL'))
    await userEvent.click(screen.getByRole('radio', { name: /Open/ }))
    await userEvent.click(screen.getByRole('switch'))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false))
    expect(calls[0]!.method).toBe('PATCH')
    expect(await calls[0]!.clone().json()).toEqual({
      name: 'New name',
      description: 'About design',
      image: null,
      exclusivity: 'open',
      shareEnabled: true,
    })
  })

  it('keeps an open forum open, with the notice', async () => {
    stubFetch(() => json(500))
    await renderInApp(<EditForumDialog forum={forum({ exclusivity: 'open' })} open onOpenChange={() => {}} />)
    expect(screen.getByText("Access Can't Be Changed")).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: /Invite only/ })).toBeDisabled()
    expect(screen.getByRole('radio', { name: /Open/ })).toBeChecked()
  })
})
