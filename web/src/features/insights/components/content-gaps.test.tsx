import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import type { Schemas } from '@/api/client'
import { json, renderInApp } from '@/test/utils'
import { SERIES, serveInsights } from '../test/fixtures'
import { ContentGaps } from './content-gaps'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const gap = (id: string, question: string, askedCount: number, lastAskedOn: string): Schemas['ContentGap'] => ({
  id,
  question,
  askedCount,
  firstAskedOn: '2026-03-01T10:00:00.000Z',
  lastAskedOn,
})

const LIST = `/api/insights/list/content-gaps/${SERIES}`

describe('ContentGaps', () => {
  it('lists the unanswered questions with their count and date, reorders them, and dismisses one', async () => {
    let gaps = [gap('g1', 'Where is the onboarding handbook?', 2, '2026-03-12T09:00:00.000Z'), gap('g2', 'Is there a mentor program?', 1, '2026-03-10T09:00:00.000Z')]
    const calls = serveInsights((method, _path, url) => {
      if (method === 'GET' && url.pathname === LIST) {
        const sorted = url.searchParams.get('sort') === 'mostAsked' ? [...gaps].sort((a, b) => b.askedCount - a.askedCount) : gaps
        return json(200, { results: sorted, total: sorted.length })
      }
      const m = url.pathname.match(new RegExp(`^/api/insights/series/${SERIES}/content-gaps/(.+)$`))
      if (method === 'DELETE' && m) {
        gaps = gaps.filter((g) => g.id !== m[1])
        return new Response(null, { status: 204 })
      }
      return undefined
    })
    await renderInApp(<ContentGaps seriesId={SERIES} />)
    const section = screen.getByRole('region', { name: 'Content gaps' })
    await waitFor(() => expect(within(section).getAllByTestId('content-gap')).toHaveLength(2))
    const [first, second] = within(section).getAllByTestId('content-gap')
    expect(first).toHaveTextContent('Where is the onboarding handbook?')
    expect(first).toHaveTextContent('Asked 2 times · last on Mar 12')
    expect(second).toHaveTextContent('Asked once · last on Mar 10')

    await userEvent.click(within(section).getByRole('button', { name: 'Most asked' }))
    await waitFor(() => expect(calls.map((r) => new URL(r.url).search)).toContain('?sort=mostAsked&page=1&pageSize=20'))
    expect(within(section).getByRole('button', { name: 'Most asked' })).toHaveAttribute('aria-pressed', 'true')

    await userEvent.click(within(section).getByRole('button', { name: 'Dismiss “Where is the onboarding handbook?”' }))
    await waitFor(() => expect(within(section).getAllByTestId('content-gap')).toHaveLength(1))
    expect(section).not.toHaveTextContent('onboarding handbook')
    expect(calls.some((r) => r.method === 'DELETE' && new URL(r.url).pathname.endsWith('/content-gaps/g1'))).toBe(true)
  })

  it('says so when the forum has no content gaps', async () => {
    serveInsights()
    await renderInApp(<ContentGaps seriesId={SERIES} />)
    expect(await screen.findByText(/No unanswered questions/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Dismiss/ })).not.toBeInTheDocument()
  })
})
