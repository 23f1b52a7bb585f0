import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { MemberSearch, type MemberSearchProps } from './member-search'
import type { MemberMatch } from '../../api/search-members'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const match = (i: number, firstName = `Ada${i}`, lastName = 'Lovelace'): MemberMatch => ({
  id: `p${i}`,
  userId: i % 2 ? `u${i}` : null,
  firstName,
  lastName,
  avatar: null,
  jobTitle: 'Engineer',
  company: 'Analytical',
})

/** api answers the member search with `all` (at most limit of them) and records what was asked. */
function api(all: MemberMatch[]) {
  const asked: URLSearchParams[] = []
  stubFetch((_m, path) => {
    const u = new URL(path, 'http://x')
    if (u.pathname !== '/api/communities/c1/member-search') return json(404, { code: 'notFound', message: path })
    asked.push(u.searchParams)
    const limit = Number(u.searchParams.get('limit') ?? 5)
    return json(200, { results: all.slice(0, limit), total: all.length })
  })
  return asked
}

function Harness(props: Partial<MemberSearchProps>) {
  const [value, setValue] = useState('')
  return <MemberSearch communityId="c1" value={value} onChange={setValue} onPick={() => {}} {...props} />
}

const box = () => screen.getByRole('searchbox', { name: 'Search members by name' })

describe('MemberSearch (spec 000 §2.7)', () => {
  it('shows up to 5 matches, asked once typing pauses, and says when more match', async () => {
    const asked = api(Array.from({ length: 8 }, (_, i) => match(i)))
    const onPick = vi.fn()
    await renderInApp(<Harness onPick={onPick} />)
    // Nothing is asked for an empty box.
    expect(asked).toHaveLength(0)
    await userEvent.type(box(), 'Lovelase')
    const list = await screen.findByRole('list', { name: 'Matching members' })
    expect(within(list).getAllByTestId('member-match')).toHaveLength(5)
    // Debounced: one request for the whole word, with the limit of 5.
    expect(asked.map((p) => p.get('q'))).toEqual(['Lovelase'])
    expect(asked[0]!.get('limit')).toBe('5')
    expect(screen.getByTestId('member-search-more')).toHaveTextContent('3 more members match.')
    await userEvent.click(within(list).getByRole('button', { name: /Ada2 Lovelace/ }))
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ id: 'p2' }))
  })

  it('has no "more" line when every match is shown, and marks picked ones', async () => {
    api([match(1), match(2)])
    await renderInApp(<Harness isPicked={(m) => m.id === 'p2'} />)
    await userEvent.type(box(), 'Ada')
    const list = await screen.findByRole('list', { name: 'Matching members' })
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-pressed')),
    ).toEqual(['false', 'true'])
    expect(screen.queryByTestId('member-search-more')).toBeNull()
  })

  it('says when nobody matches, and offers to add a new member with the typed name when enabled', async () => {
    api([])
    const onAddNew = vi.fn()
    const { unmount } = await renderInApp(<Harness onAddNew={onAddNew} />)
    await userEvent.type(box(), 'Grace Hopper')
    expect(await screen.findByText('No member matches “Grace Hopper”.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Add new member' }))
    expect(onAddNew).toHaveBeenCalledWith('Grace Hopper')
    unmount()

    await renderInApp(<Harness />)
    await userEvent.type(box(), 'Nobody')
    await waitFor(() => expect(screen.getByTestId('member-search-none')).toBeInTheDocument())
    expect(screen.queryByRole('button', { name: 'Add new member' })).toBeNull()
  })
})
