import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { forum as aForum } from '@/test/factories'
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

const forum = (o: Partial<Schemas['Forum']> = {}) =>
  aForum({ id: 'f1', context: { communityId: 'c1' }, role: 'admin', mainChannelId: 'ch1', adminChannelId: 'ch2', ...o })

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
    await userEvent.click(screen.getByRole('switch', { name: 'Members may share posts of this forum' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false))
    expect(calls[0]!.method).toBe('PATCH')
    expect(await calls[0]!.clone().json()).toEqual({
      name: 'New name',
      description: 'About design',
      image: null,
      exclusivity: 'open',
      shareEnabled: true,
      isFree: true,
      price: 3995,
    })
  })

  it("makes a forum paid at a price a month, with the community form's limits (spec 000 §2.7, §5)", async () => {
    const calls = stubFetch((_m, _p, req) => req.clone().json().then((b) => json(200, forum(b as Partial<Schemas['Forum']>))))
    const onOpenChange = vi.fn()
    await renderInApp(<EditForumDialog forum={forum()} open onOpenChange={onOpenChange} />)
    // Free: no price asked.
    expect(screen.queryByLabelText('Price a month (USD)')).toBeNull()
    await userEvent.click(screen.getByRole('switch', { name: 'Free forum' }))
    const price = screen.getByLabelText('Price a month (USD)')
    expect(price).toHaveValue('39.95')
    await userEvent.clear(price)
    await userEvent.type(price, '100000')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.getByText('Enter a price from 0 to 99,999.00, with at most two decimals.')).toBeInTheDocument()
    expect(calls).toHaveLength(0)
    await userEvent.clear(price)
    await userEvent.type(price, '15')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false))
    expect(await calls[0]!.clone().json()).toMatchObject({ isFree: false, price: 1500 })
  })

  it('starts from the price of a paid forum', async () => {
    stubFetch(() => json(500))
    await renderInApp(<EditForumDialog forum={forum({ isFree: false, price: 2500 })} open onOpenChange={() => {}} />)
    expect(screen.getByRole('switch', { name: 'Free forum' })).not.toBeChecked()
    expect(screen.getByLabelText('Price a month (USD)')).toHaveValue('25.00')
  })

  it('keeps an open forum open, with the notice', async () => {
    stubFetch(() => json(500))
    await renderInApp(<EditForumDialog forum={forum({ exclusivity: 'open' })} open onOpenChange={() => {}} />)
    expect(screen.getByText("Access Can't Be Changed")).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: /Invite only/ })).toBeDisabled()
    expect(screen.getByRole('radio', { name: /Open/ })).toBeChecked()
  })
})
