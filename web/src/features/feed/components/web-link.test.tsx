import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, personalizationServer, renderInApp, stubFetch } from '@/test/utils'
import { ME, signIn } from '@/test/factories'
import { RichText } from './rich-text'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function serve(stored: Record<string, unknown>) {
  const { patches, answer } = personalizationServer(ME, stored)
  stubFetch(async (method, path, req) => (await answer(method, path, req)) ?? json(404, { code: 'notFound', message: 'no' }))
  return patches
}

async function render() {
  const r = await renderInApp(<RichText raw="Read https://example.com/article please" />)
  signIn(r.session)
  await waitFor(() => expect(r.queryClient.getQueryData(['personalization', ME])).toBeDefined())
  return r
}

const link = () => screen.getByRole('link', { name: 'https://example.com/article' })

describe('WebLink: leaving for another site (spec 000 §2.4, §3)', () => {
  it('asks first, opens the site in a new tab, and keeps "don\'t ask again"', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    const patches = serve({})
    await render()
    await userEvent.click(link())
    const dialog = await screen.findByRole('dialog', { name: 'Leave Agora?' })
    expect(dialog).toHaveTextContent('https://example.com/article')
    expect(open).not.toHaveBeenCalled()
    await userEvent.click(within(dialog).getByRole('checkbox', { name: "Don't ask again" }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open link' }))
    expect(open).toHaveBeenCalledWith('https://example.com/article', '_blank', 'noopener,noreferrer')
    await waitFor(() => expect(patches).toEqual([{ 'feed.webLink.dontConfirmNavigation': true }]))
    expect(screen.queryByRole('dialog')).toBeNull()
    // Asked no more: the link opens as a link.
    expect(fireEvent.click(link())).toBe(true)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('goes nowhere and keeps nothing on Cancel', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    const patches = serve({})
    await render()
    await userEvent.click(link())
    const dialog = await screen.findByRole('dialog', { name: 'Leave Agora?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(open).not.toHaveBeenCalled()
    expect(patches).toEqual([])
  })

  it('does not ask a member who chose not to be asked', async () => {
    serve({ 'feed.webLink.dontConfirmNavigation': true })
    await render()
    expect(fireEvent.click(link())).toBe(true)
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
