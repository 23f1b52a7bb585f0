import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp } from '@/test/utils'
import { ADA, ADMIN_CHANNEL, COMMUNITY, SERIES, daily, serveInsights, sizeCharts } from '../test/fixtures'
import { InsightsPanel } from './insights-panel'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
// jsdom has no ResizeObserver, which Radix's slider and the charts measure themselves with.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}

sizeCharts()

const render = () =>
  renderInApp(<InsightsPanel seriesId={SERIES} communityId={COMMUNITY} feed={(id) => <div data-testid="admin-feed">feed of {id}</div>} />)

const paths = (calls: Request[]) => calls.map((r) => new URL(r.url)).map((u) => u.pathname + u.search)

describe('InsightsPanel', () => {
  it('shows an admin the period’s interactions, a day’s value, the breakdown, the questions and how fresh it is', async () => {
    const calls = serveInsights()
    await render()
    const overview = await screen.findByTestId('insights-overview')
    await waitFor(() => expect(within(overview).getByTestId('interactions-total')).toHaveTextContent(/: 12$/))
    expect(overview).toHaveTextContent('interactions in the last 90 days')
    // The chart's figures, a row a day, for screen readers (and the tooltip's numbers).
    expect(within(overview).getByRole('row', { name: 'Mar 3 7' })).toBeInTheDocument()
    expect(within(overview).getByRole('row', { name: 'Mar 4 0' })).toBeInTheDocument()
    expect(within(overview).getAllByRole('row')).toHaveLength(91)
    expect(within(overview).getByText('12 interactions in the last 90 days; the busiest day was Mar 3 with 7.')).toBeInTheDocument()
    expect(within(screen.getByTestId('interactions-kinds')).getByText('Reactions').nextSibling).toHaveTextContent('4')
    // The chart's tooltip, moved along the days with the arrow keys.
    const chart = within(screen.getByTestId('interactions-chart')).getByRole('application', { name: 'Interactions a day' })
    chart.focus()
    const tip = () => [...screen.getByTestId('chart-tooltip').children].map((p) => p.textContent)
    await waitFor(() => expect(tip()).toEqual(['Jan 1', '0 interactions']))
    await userEvent.keyboard('{ArrowRight>61/}')
    await waitFor(() => expect(tip()).toEqual(['Mar 3', '7 interactions']))

    // Shared content: a legend in words, with values and percents.
    const content = await screen.findByTestId('insights-content')
    await waitFor(() => expect(within(content).getByTestId('content-image')).toHaveTextContent(/Images\s*3\s*37\.5%/))
    expect(within(content).getByTestId('content-video')).toHaveTextContent(/Videos\s*0\s*0%/)
    expect(within(content).getByTestId('content-aiChat')).toHaveTextContent(/AI chats\s*2\s*25%/)
    expect(within(content).getByText(/Total shared/)).toHaveTextContent('Total shared: 8')

    const meetups = screen.getByTestId('insights-meetups')
    await waitFor(() => expect(within(meetups).getByTestId('figure-invited')).toHaveTextContent('Invited31'))
    expect(within(meetups).getByTestId('figure-attendanceAvg')).toHaveTextContent('4.5')
    expect(within(meetups).getByTestId('figure-durationAvg')).toHaveTextContent('42 min')
    expect(within(meetups).getByTestId('figure-private')).toHaveTextContent('Private1')

    const members = screen.getByTestId('insights-members')
    await waitFor(() => expect(within(members).getByTestId('figure-visitors')).toHaveTextContent('Visitors9'))
    expect(within(members).getByTestId('figure-didNotVisit')).toHaveTextContent('3')
    expect(within(members).getByTestId('figure-total')).toHaveTextContent('Total members12')
    expect(within(members).getByTestId('figure-avgVisits')).toHaveTextContent('2.3')
    expect(members).toHaveTextContent('9 of 12 members visited')

    const questions = screen.getByTestId('questions-breakdown')
    expect(within(questions).getByText('Beta')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByTestId('questions-aiSearches-total')).toHaveTextContent('6'))
    expect(screen.getByTestId('questions-inlineQuestions-total')).toHaveTextContent('2')
    expect(screen.getByTestId('questions-askedQuestions-total')).toHaveTextContent('3')
    expect(screen.getByTestId('questions-askedQuestions')).toHaveTextContent('1 anonymous')

    expect(screen.getByTestId('insights-updated')).toHaveTextContent('Updated 5 minutes ago')
    // The admin channel's feed, composed by the shell, for the channel the API names.
    expect(await screen.findByTestId('admin-feed')).toHaveTextContent(`feed of ${ADMIN_CHANNEL}`)
    expect(paths(calls)).toContain(`/api/insights/reports/interactions/${SERIES}?period=90`)
    expect(screen.getByRole('slider', { name: 'Period' })).toHaveAttribute('aria-valuetext', 'Last 90 days')
  })

  it('asks for every report of the period chosen with the slider, keeping the figures until they come', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const calls = serveInsights(async (_m, _p, url) => {
      // The 60-day interactions wait, to see the 90-day figures kept meanwhile.
      if (url.pathname.includes('/reports/interactions/') && url.searchParams.get('period') === '60') {
        await held
        return json(200, daily(60, { '2026-03-03': 2 }))
      }
      return undefined
    })
    await render()
    await waitFor(() => expect(screen.getByTestId('interactions-total')).toHaveTextContent(/: 12$/))
    const slider = screen.getByRole('slider', { name: 'Period' })
    slider.focus()
    await userEvent.keyboard('{ArrowLeft}')
    expect(slider).toHaveAttribute('aria-valuetext', 'Last 60 days')
    await waitFor(() => {
      const asked = paths(calls)
      for (const r of ['interactions', 'content', 'meetups', 'members', 'ai-searches', 'inline-questions', 'asked-questions'])
        expect(asked).toContain(`/api/insights/reports/${r}/${SERIES}?period=60`)
    })
    // The previous period's total stays, marked busy, until the new one arrives.
    expect(screen.getByTestId('interactions-total')).toHaveTextContent(/: 12$/)
    expect(screen.getByTestId('insights-updated')).toHaveTextContent('Updating…')
    release()
    await waitFor(() => expect(screen.getByTestId('interactions-total')).toHaveTextContent(/: 2$/))
    expect(screen.getByTestId('insights-overview')).toHaveTextContent('interactions in the last 60 days')
    await userEvent.keyboard('{Home}')
    await waitFor(() => expect(paths(calls)).toContain(`/api/insights/reports/interactions/${SERIES}?period=30`))
  })

  it('lists the asked questions in Details: anonymous ones without their author, a link to each post, more on demand', async () => {
    const anonymous = '0190a000-0000-7000-8000-0000000000e1'
    const calls = serveInsights((_m, _p, url) => {
      if (url.pathname !== `/api/insights/list/asked-questions/${SERIES}`) return undefined
      const page = url.searchParams.get('page')
      const base = { period: 90, updatedOn: null, total: 3, totalAnonymous: 1 }
      if (page === '1')
        return json(200, {
          ...base,
          result: [
            { threadId: anonymous, question: 'Is this safe to ask?', creatorId: null, as: 'anonymous', createdOn: '2026-03-12T10:00:00Z' },
            { threadId: '0190a000-0000-7000-8000-0000000000e2', question: 'How do we plan a roadmap?', creatorId: ADA, as: 'author', createdOn: '2026-03-11T10:00:00Z' },
          ],
        })
      return json(200, {
        ...base,
        result: [{ threadId: '0190a000-0000-7000-8000-0000000000e3', question: 'Who owns the backlog?', creatorId: ADA, as: 'author', createdOn: '2026-03-10T10:00:00Z' }],
      })
    })
    await render()
    await userEvent.click(screen.getByRole('button', { name: 'Details of Asked questions' }))
    const dialog = await screen.findByRole('dialog', { name: 'Asked questions' })
    const items = await within(dialog).findAllByTestId('details-item')
    expect(items).toHaveLength(2)
    expect(within(items[0]!).getByTestId('details-author')).toHaveTextContent(/^Anonymous$/)
    expect(items[0]).not.toHaveTextContent('Ada')
    expect(within(items[0]!).getByRole('link', { name: 'Is this safe to ask?' })).toHaveAttribute(
      'href',
      `/communities/${COMMUNITY}/series/${SERIES}/posts/${anonymous}`,
    )
    await waitFor(() => expect(within(items[1]!).getByTestId('details-author')).toHaveTextContent('Ada Lovelace'))
    expect(dialog).toHaveTextContent('2 of 3')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Load more' }))
    await waitFor(() => expect(within(dialog).getAllByTestId('details-item')).toHaveLength(3))
    expect(within(dialog).getByText('Who owns the backlog?')).toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Load more' })).toBeNull()
    expect(paths(calls)).toContain(`/api/insights/list/asked-questions/${SERIES}?period=90&page=2&pageSize=20`)
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('lists each question of an inline question’s message, and the AI searches’ questions', async () => {
    serveInsights((_m, _p, url) => {
      if (url.pathname === `/api/insights/list/inline-questions/${SERIES}`)
        return json(200, {
          period: 90,
          updatedOn: null,
          total: 1,
          result: [
            {
              threadId: '0190a000-0000-7000-8000-0000000000e4',
              messageId: '0190a000-0000-7000-8000-0000000000e5',
              questions: ['Why now?', 'Who decides?'],
              creatorId: ADA,
              createdOn: '2026-03-12T10:00:00Z',
            },
          ],
        })
      if (url.pathname === `/api/insights/list/ai-searches/${SERIES}`)
        return json(200, { period: 90, updatedOn: null, total: 1, result: [{ searchId: 's1', question: 'What is our OKR process?', createdOn: '2026-03-12T10:00:00Z' }] })
      return undefined
    })
    await render()
    await userEvent.click(screen.getByRole('button', { name: 'Details of Inline questions' }))
    let dialog = await screen.findByRole('dialog', { name: 'Inline questions' })
    const [item] = await within(dialog).findAllByTestId('details-item')
    expect(within(item!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Why now?', 'Who decides?'])
    expect(within(item!).getByRole('link', { name: 'View the post: Why now?' })).toHaveAttribute(
      'href',
      `/communities/${COMMUNITY}/series/${SERIES}/posts/0190a000-0000-7000-8000-0000000000e4`,
    )
    await waitFor(() => expect(within(item!).getByTestId('details-author')).toHaveTextContent('Ada Lovelace'))
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())

    await userEvent.click(screen.getByRole('button', { name: 'Details of AI searches' }))
    dialog = await screen.findByRole('dialog', { name: 'AI searches' })
    const [search] = await within(dialog).findAllByTestId('details-item')
    expect(search).toHaveTextContent('What is our OKR process?')
    // An AI search has no post to open.
    expect(within(search!).queryByRole('link')).toBeNull()
  })

  it('says so when a list is empty', async () => {
    serveInsights((_m, _p, url) =>
      url.pathname === `/api/insights/list/ai-searches/${SERIES}` ? json(200, { period: 90, updatedOn: null, total: 0, result: [] }) : undefined,
    )
    await render()
    await userEvent.click(screen.getByRole('button', { name: 'Details of AI searches' }))
    const dialog = await screen.findByRole('dialog', { name: 'AI searches' })
    expect(await within(dialog).findByText('No AI searches in this period.')).toBeInTheDocument()
    expect(within(dialog).queryByTestId('details-item')).toBeNull()
  })

  it('shows a failed report’s generic error in its own widget while the others render', async () => {
    // A 4xx is not retried, so the error shows at once.
    serveInsights((_m, _p, url) =>
      url.pathname === `/api/insights/reports/content/${SERIES}` ? json(400, { code: 'validationFailed', message: 'no' }) : undefined,
    )
    await render()
    const content = await screen.findByTestId('insights-content')
    await waitFor(() => expect(within(content).getByRole('alert')).toHaveTextContent('Something went wrong.'))
    expect(within(content).getByRole('button', { name: 'Try again' })).toBeInTheDocument()
    await waitFor(() => expect(screen.getByTestId('interactions-total')).toHaveTextContent(/: 12$/))
    await waitFor(() => expect(within(screen.getByTestId('insights-meetups')).getByTestId('figure-meetups')).toHaveTextContent('4'))
    expect(within(screen.getByTestId('insights-members')).queryByRole('alert')).toBeNull()
    expect(screen.getAllByRole('alert')).toHaveLength(1)
  })

  it('shows 5 loading rows while a report is on its way, and "No activity yet" for a forum without any', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    serveInsights(async (_m, _p, url) => {
      if (url.pathname === `/api/insights/reports/members/${SERIES}`) await held
      if (url.pathname.startsWith('/api/insights/reports/')) {
        const name = url.pathname.split('/')[4]
        if (name === 'interactions' || name === 'ai-searches' || name === 'inline-questions' || name === 'asked-questions')
          return json(200, daily(90, {}, {}, null))
        return json(200, { period: 90, updatedOn: null, ...(name === 'content' ? { total: 0, kinds: [] } : name === 'meetups' ? { meetups: 0, invited: 0, attended: 0, attendanceAvg: 0, durationAvg: 0, private: 0 } : { counts: { visitors: 0, avgVisitsPerMember: 0, didNotVisit: 0, total: 0 }, visitorIds: [] }) })
      }
      if (url.pathname === `/api/insights/series/${SERIES}/admin-channel`) return json(200, { _id: null })
      return undefined
    })
    await render()
    const members = screen.getByTestId('insights-members')
    expect(within(members).getByTestId('insights-skeleton').children).toHaveLength(6) // the hidden "Loading…" and 5 rows
    await waitFor(() => expect(screen.getByTestId('insights-updated')).toHaveTextContent('No activity yet'))
    expect(screen.getByTestId('interactions-total')).toHaveTextContent(/: 0$/)
    expect(screen.getByText('No interactions in the last 90 days.')).toBeInTheDocument()
    expect(screen.getByText('Nothing was shared in this period.')).toBeInTheDocument()
    expect(await screen.findByText('This forum has no admin channel.')).toBeInTheDocument()
    expect(screen.queryByTestId('admin-feed')).toBeNull()
    release()
    await waitFor(() => expect(within(members).getByTestId('figure-total')).toHaveTextContent('0'))
  })
})
