import { screen } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderInApp, stubFetch } from '@/test/utils'
import { DeleteCommunityDialog } from './delete-community-dialog'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

afterEach(() => vi.unstubAllGlobals())

describe('the delete community confirmation', () => {
  it('deletes nothing until the community’s name is typed', async () => {
    const calls = stubFetch(() => new Response(null, { status: 204 }))
    await renderInApp(<DeleteCommunityDialog community={{ id: 'c1', name: 'Leaders' }} open onOpenChange={() => {}} />)
    await userEvent.type(screen.getByLabelText('Type “Leaders” to confirm'), 'Leader')
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('The value does not match.')).toBeInTheDocument()
    expect(calls.filter((r) => r.method === 'DELETE')).toEqual([])
    await userEvent.type(screen.getByLabelText('Type “Leaders” to confirm'), 's')
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }))
    await vi.waitFor(() => expect(calls.filter((r) => r.method === 'DELETE').map((r) => new URL(r.url).pathname)).toEqual(['/api/communities/c1']))
  }, 30_000)
})
