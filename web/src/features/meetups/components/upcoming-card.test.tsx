import { describe, expect, it } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
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

  it('shows nothing when no Meet Up is upcoming', async () => {
    const calls = serve([])
    const r = await renderInApp(<UpcomingMeetupsCard />)
    signIn(r.session)
    await waitFor(() => expect(calls.some((c) => c.url.includes('/api/meetings?'))).toBe(true))
    expect(screen.queryByTestId('upcoming-card')).toBeNull()
  })
})
