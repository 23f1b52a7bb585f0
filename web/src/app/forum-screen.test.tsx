import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { community as aCommunity, forum as aForum, myForum, thread } from '@/test/factories'
import { meeting } from '@/features/meetups/test/fixtures'
import { ForumScreen } from './forum-screen'

afterEach(() => vi.unstubAllGlobals())

const F = '00000000-0000-4000-8000-0000000000f1'
const OTHER = '00000000-0000-4000-8000-0000000000f2'
const forum = aForum({ id: F, context: { communityId: 'c1' }, mainChannelId: 'ch1' })
const community = aCommunity('c1', 'Builders', [myForum(F, 'Design Forum'), myForum(OTHER, 'Build Forum')])

describe('ForumScreen', () => {
  it('joins the forum page with its community, the feed and the AI search box', async () => {
    stubFetch((method, path) => {
      if (path === `/api/series/${F}`) return json(200, forum)
      if (method === 'POST' && path === `/api/series/${F}/visits`) return json(200, { previouslyVisitedOn: null })
      if (path.startsWith('/api/communities?')) return json(200, { results: [community], total: 1 })
      if (path.startsWith('/api/channels/ch1/threads')) return json(200, { results: [] })
      if (path.startsWith(`/api/series/${F}/members`)) return json(200, { results: [], total: 0 })
      return json(404, { code: 'notFound', message: path })
    })
    await renderInApp(<ForumScreen seriesId={F} communityId="c1" />, { path: `/communities/c1/series/${F}` })
    expect(await screen.findByRole('heading', { name: 'Design Forum', level: 1 })).toBeInTheDocument()
    expect(await screen.findByTestId('forum-feed')).toBeInTheDocument()
    expect(screen.getByTestId('ai-search')).toBeInTheDocument()
    const nav = await screen.findByRole('navigation', { name: 'Forums of this community' })
    expect(within(nav).getByText('Builders')).toBeInTheDocument()
    expect(within(nav).getByRole('link', { name: 'Build Forum' })).toBeInTheDocument()
  })

  it('adds the Meet Ups to the feed: the Schedule Meet Up button, a Meet Up post as its Meet Up, and the Up next card', async () => {
    const m = meeting({ seriesId: F, name: 'Pruning roses' })
    stubFetch((method, path) => {
      if (path === `/api/series/${F}`) return json(200, forum)
      if (method === 'POST' && path === `/api/series/${F}/visits`) return json(200, { previouslyVisitedOn: null })
      if (path.startsWith('/api/communities?')) return json(200, { results: [community], total: 1 })
      if (path.startsWith('/api/channels/ch1/threads')) return json(200, { results: path.includes('createdBefore') ? [] : [thread('p1', { channelId: 'ch1', seriesId: F, raw: '', meeting: m })] })
      if (path.startsWith(`/api/series/${F}/members`)) return json(200, { results: [], total: 0 })
      if (path.startsWith('/api/meetings?')) return json(200, { results: [m], total: 1 })
      return json(404, { code: 'notFound', message: path })
    })
    await renderInApp(<ForumScreen seriesId={F} communityId="c1" />, { path: `/communities/c1/series/${F}` })
    const actions = await screen.findByRole('group', { name: 'Create' })
    expect(within(actions).getByRole('button', { name: 'Schedule Meet Up' })).toBeInTheDocument()
    const post = await screen.findByTestId('post-card')
    expect(within(post).getByRole('region', { name: 'Pruning roses' })).toBeInTheDocument()
    expect(await screen.findByTestId('up-next-name')).toHaveTextContent('Pruning roses')
  })
})
