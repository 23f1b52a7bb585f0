import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import { json, renderInApp } from '@/test/utils'
import { SERIES, serveInsights } from '../test/fixtures'
import { setPeriod } from '../hooks/use-period'
import { InsightsSummaryStats } from './summary-stats'

afterEach(() => vi.unstubAllGlobals())

describe('InsightsSummaryStats', () => {
  it('shows the five figures of the chosen period', async () => {
    setPeriod(30)
    const calls = serveInsights()
    await renderInApp(<InsightsSummaryStats seriesId={SERIES} />)
    const stats = screen.getByRole('region', { name: 'Insights summary, last 30 days' })
    await waitFor(() => expect(within(stats).getByTestId('summary-interactions')).toHaveTextContent('Interactions1.2K'))
    expect(within(stats).getByTestId('summary-sharedContent')).toHaveTextContent('Shared content8')
    expect(within(stats).getByTestId('summary-meetups')).toHaveTextContent('Meet Ups4')
    expect(within(stats).getByTestId('summary-members')).toHaveTextContent('Members9')
    expect(within(stats).getByTestId('summary-inquiries')).toHaveTextContent('Inquiries17')
    expect(new URL(calls[0]!.url).search).toBe('?period=30')
  })

  it('says oops under the generic message when the summary fails', async () => {
    serveInsights((_m, _p, url) => (url.pathname.startsWith('/api/insights/summary/') ? json(403, { code: 'forbidden', message: 'no' }) : undefined))
    await renderInApp(<InsightsSummaryStats seriesId={SERIES} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong.')
    for (const k of ['interactions', 'sharedContent', 'meetups', 'members', 'inquiries']) expect(screen.getByTestId(`summary-${k}`)).toHaveTextContent(/oops$/)
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })
})
