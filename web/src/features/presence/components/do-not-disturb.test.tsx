import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { DoNotDisturbToggle } from './do-not-disturb'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

/** serve keeps the member's choice as the server does, and records what is chosen. */
function serve(status: 'do-not-disturb' | 'auto') {
  const bodies: unknown[] = []
  stubFetch(async (method, path, req) => {
    if (path !== '/api/users/me/status') return json(404, { code: 'notFound', message: 'no' })
    if (method === 'GET') return json(200, { status })
    const body = (await req.json()) as { status: typeof status }
    bodies.push(body)
    status = body.status
    return new Response(null, { status: 204 })
  })
  return bodies
}

describe('DoNotDisturbToggle', () => {
  it('shows the choice the server keeps, from any browser', async () => {
    serve('do-not-disturb')
    await renderInApp(<DoNotDisturbToggle />)
    const toggle = screen.getByRole('switch', { name: 'Do not disturb' })
    await waitFor(() => expect(toggle).toBeEnabled())
    expect(toggle).toBeChecked()
  })

  it('chooses do-not-disturb and auto again, and a new view reads the choice back', async () => {
    const bodies = serve('auto')
    const r = await renderInApp(<DoNotDisturbToggle />)
    const toggle = screen.getByRole('switch', { name: 'Do not disturb' })
    await waitFor(() => expect(toggle).toBeEnabled())
    expect(toggle).not.toBeChecked()
    await userEvent.click(toggle)
    await waitFor(() => expect(toggle).toBeChecked())
    r.unmount()
    await renderInApp(<DoNotDisturbToggle />)
    const again = screen.getByRole('switch', { name: 'Do not disturb' })
    await waitFor(() => expect(again).toBeChecked())
    await userEvent.click(again)
    await waitFor(() => expect(again).not.toBeChecked())
    expect(bodies).toEqual([{ status: 'do-not-disturb' }, { status: 'auto' }])
  })

  it('stays as it was when the server refuses', async () => {
    stubFetch((method) => (method === 'GET' ? json(200, { status: 'auto' }) : json(500, { code: 'internalError', message: 'no' })))
    await renderInApp(<DoNotDisturbToggle />)
    const toggle = screen.getByRole('switch', { name: 'Do not disturb' })
    await waitFor(() => expect(toggle).toBeEnabled())
    await userEvent.click(toggle)
    await waitFor(() => expect(toggle).toBeEnabled())
    expect(toggle).not.toBeChecked()
  })
})
