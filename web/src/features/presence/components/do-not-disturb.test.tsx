import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { DoNotDisturbToggle } from './do-not-disturb'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

describe('DoNotDisturbToggle', () => {
  it('chooses do-not-disturb and auto again, and remembers the choice in this browser', async () => {
    const bodies: unknown[] = []
    stubFetch(async (method, path, req) => {
      if (method === 'PUT' && path === '/api/users/me/status') {
        bodies.push(await req.json())
        return new Response(null, { status: 204 })
      }
      return json(404, { code: 'notFound', message: 'no' })
    })
    const r = await renderInApp(<DoNotDisturbToggle />)
    const toggle = screen.getByRole('switch', { name: 'Do not disturb' })
    expect(toggle).not.toBeChecked()
    await userEvent.click(toggle)
    await waitFor(() => expect(toggle).toBeChecked())
    r.unmount()
    await renderInApp(<DoNotDisturbToggle />)
    const again = screen.getByRole('switch', { name: 'Do not disturb' })
    expect(again).toBeChecked()
    await userEvent.click(again)
    await waitFor(() => expect(again).not.toBeChecked())
    expect(bodies).toEqual([{ status: 'do-not-disturb' }, { status: 'auto' }])
  })

  it('stays as it was when the server refuses', async () => {
    stubFetch(() => json(500, { code: 'internalError', message: 'no' }))
    await renderInApp(<DoNotDisturbToggle />)
    const toggle = screen.getByRole('switch', { name: 'Do not disturb' })
    await userEvent.click(toggle)
    await waitFor(() => expect(toggle).toBeEnabled())
    expect(toggle).not.toBeChecked()
  })
})
