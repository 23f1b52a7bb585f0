import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { closeHub } from '@/lib/hub'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { ME, signIn } from '@/test/factories'
import { DeploymentNotice } from './deployment-notice'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

// The live connection as the browser makes it (a ticket, then a
// WebSocket), with a socket the test speaks through.
let sockets: FakeSocket[] = []
class FakeSocket {
  onopen: ((ev: unknown) => void) | null = null
  onmessage: ((ev: { data: unknown }) => void) | null = null
  onclose: ((ev: { code: number }) => void) | null = null
  constructor(readonly url: string) {
    sockets.push(this)
  }
  send() {}
  close() {}
}

function setBuild(id: string | undefined) {
  document.head.querySelector('meta[name="agora-build"]')?.remove()
  if (id === undefined) return
  const meta = document.createElement('meta')
  meta.name = 'agora-build'
  meta.content = id
  document.head.append(meta)
}

beforeEach(() => {
  sockets = []
  vi.stubGlobal('WebSocket', FakeSocket)
  stubFetch((_m, path) => (path === '/api/hub/tickets' ? json(201, { ticket: 'tk', expiresOn: '2030-01-01T00:00:00.000Z' }) : json(404, { code: 'notFound', message: 'no' })))
})
afterEach(() => {
  closeHub()
  setBuild(undefined)
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

/** connect renders the notice for a signed-in member and says which build the server serves. */
async function connect(version: string) {
  const r = await renderInApp(<DeploymentNotice />)
  signIn(r.session, {}, `t-${Math.random()}`)
  await waitFor(() => expect(sockets).toHaveLength(1))
  const s = sockets[0]!
  expect(s.url).toContain('/api/hub?ticket=tk')
  act(() => {
    s.onopen?.({})
    s.onmessage?.({ data: JSON.stringify({ type: 'api:messages:broadcast', contextKey: `user:${ME}`, event: 'application.deployment.completed', data: { payload: { version } } }) })
  })
  return r
}

describe('DeploymentNotice (spec 000 §4)', () => {
  it('tells a tab of an older build that a new version is available, and Refresh reloads', async () => {
    setBuild('old-build')
    const reload = vi.fn()
    vi.stubGlobal('location', { ...window.location, reload })
    await connect('new-build')
    const notice = await screen.findByRole('status')
    expect(notice).toHaveTextContent('A new version of Agora is available')
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    expect(reload).toHaveBeenCalled()
  })

  it('can be closed, and blocks nothing meanwhile', async () => {
    setBuild('old-build')
    await connect('new-build')
    await screen.findByRole('status')
    expect(screen.queryByRole('dialog')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByTestId('deployment-notice')).toBeNull()
  })

  it('says nothing to a tab of the build the server serves', async () => {
    setBuild('same-build')
    await connect('same-build')
    expect(screen.queryByTestId('deployment-notice')).toBeNull()
  })

  it('says nothing to a page the server did not serve (no build id)', async () => {
    await connect('new-build')
    expect(screen.queryByTestId('deployment-notice')).toBeNull()
  })
})
