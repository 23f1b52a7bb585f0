import { describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import { json, personalizationServer, renderInApp, stubFetch } from '@/test/utils'
import { ME, signIn } from '@/test/factories'
import type { Meeting } from '../api/types'
import { meeting } from '../test/fixtures'
import { UpcomingMeetupsCard } from './upcoming-card'

function serve(list: Meeting[]) {
  const p = personalizationServer(ME, {})
  return stubFetch(async (method, path, req) => {
    if (path.startsWith('/api/meetings?')) return json(200, { results: list, total: list.length })
    return (await p.answer(method, path, req)) ?? json(404, { code: 'notFound', message: path })
  })
}

describe("UpcomingMeetupsCard (Home's next Meet Ups)", () => {
  it('lists the next three, each a way to its post', async () => {
    const list = ['One', 'Two', 'Three', 'Four'].map((name, i) => meeting({ roomId: `r${i}`, tag: `r${i}`, postId: `p${i}`, name }, 60 * (i + 1)))
    serve(list)
    const r = await renderInApp(<UpcomingMeetupsCard />)
    signIn(r.session)
    const card = await screen.findByRole('region', { name: 'Upcoming Meet Ups' })
    expect(within(card).getAllByTestId('meetup-summary').map((s) => s.textContent)).toEqual([
      expect.stringContaining('One'),
      expect.stringContaining('Two'),
      expect.stringContaining('Three'),
    ])
  })

  it('leaves out a Meet Up past its end, marked ended or not, and drops one when it ends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      const past = meeting({ roomId: 'past', tag: 'past', postId: 'p0', name: 'Yesterday', duration: 30 }, -120)
      const live = meeting({ roomId: 'live', tag: 'live', postId: 'p1', name: 'Going on', duration: 30 }, -20)
      const later = meeting({ roomId: 'later', tag: 'later', postId: 'p2', name: 'Tomorrow' }, 24 * 60)
      serve([past, live, later])
      const r = await renderInApp(<UpcomingMeetupsCard />)
      signIn(r.session)
      const card = await screen.findByRole('region', { name: 'Upcoming Meet Ups' })
      expect(within(card).getAllByTestId('meetup-summary').map((s) => s.textContent)).toEqual([
        expect.stringContaining('Going on'),
        expect.stringContaining('Tomorrow'),
      ])
      // The live one ends in ten minutes (or less: its start is a whole minute).
      await act(() => vi.advanceTimersByTimeAsync(11 * 60_000))
      await waitFor(() => expect(within(card).getAllByTestId('meetup-summary').map((s) => s.textContent)).toEqual([expect.stringContaining('Tomorrow')]))
    } finally {
      vi.useRealTimers()
    }
  })

  it('shows nothing when no Meet Up is upcoming', async () => {
    const calls = serve([])
    const r = await renderInApp(<UpcomingMeetupsCard />)
    signIn(r.session)
    await waitFor(() => expect(calls.some((c) => c.url.includes('/api/meetings?'))).toBe(true))
    expect(screen.queryByTestId('upcoming-card')).toBeNull()
  })
})
