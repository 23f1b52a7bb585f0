import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { MessageEditor, type MessageEditorProps } from '@/components/message-editor/message-editor'
import { useForumSuggestions } from './forum-suggestions'

afterEach(() => vi.unstubAllGlobals())

const SERIES = '0190a8b2-0000-7000-8000-000000000001'
const ADA = '0190a8b2-0000-7000-8000-0000000000a1'
const ADAM = '0190a8b2-0000-7000-8000-0000000000a2'
const ME = '0190a8b2-0000-7000-8000-0000000000ff'

const candidate = (userId: string, firstName: string, lastName: string) => ({
  userId,
  firstName,
  lastName,
  avatar: null,
  jobTitle: 'Engineer',
  company: 'Acme',
})

// The forum's members with an account, as the API would match them (the
// server's matching, typo included, is tested with the server).
const people = [candidate(ADA, 'Ada', 'Lovelace'), candidate(ADAM, 'Adam', 'Smith'), candidate(ME, 'Me', 'Myself')]

/** api answers the editor's two reads and records what was asked for after @ and #. */
function api() {
  const tagQueries: string[] = []
  const mentionQueries: string[] = []
  const calls = stubFetch((_method, path) => {
    const u = new URL(path, 'http://x')
    if (u.pathname === `/api/series/${SERIES}/mention-candidates`) {
      const q = (u.searchParams.get('q') ?? '').toLowerCase()
      mentionQueries.push(q)
      const found = people.filter((p) =>
        `${p.firstName} ${p.lastName}`
          .toLowerCase()
          .split(' ')
          .some((w) => w.startsWith(q)),
      )
      return json(200, { results: found, total: found.length })
    }
    if (u.pathname === '/api/hashtags') {
      const q = u.searchParams.get('q') ?? ''
      tagQueries.push(q)
      const all = [
        { name: 'golang', count: 5 },
        { name: 'goals', count: 2 },
        { name: 'react', count: 9 },
      ]
      return json(200, { tags: all.filter((t) => t.name.startsWith(q.toLowerCase())) })
    }
    return json(404, { code: 'notFound', message: path })
  })
  return { calls, tagQueries, mentionQueries }
}

function Harness(props: Partial<MessageEditorProps> & { onValue?: (v: string) => void; initial?: string }) {
  const [value, setValue] = useState(props.initial ?? '')
  const suggestions = useForumSuggestions(SERIES)
  return (
    <MessageEditor
      suggestions={suggestions}
      label="Comment"
      {...props}
      value={value}
      onChange={(v) => {
        setValue(v)
        props.onValue?.(v)
      }}
    />
  )
}

const box = () => screen.getByRole('textbox', { name: 'Comment' }) as HTMLTextAreaElement

describe('a forum’s MessageEditor suggestions (spec 001 §5 "Mentions and hashtags")', () => {
  it('suggests forum members after @, shows @Display Name and keeps [Display Name](userId)', async () => {
    const { mentionQueries } = api()
    let stored = ''
    const { session } = await renderInApp(<Harness onValue={(v) => (stored = v)} />)
    session.signedIn({ accessToken: 't', role: 'user', user: { id: ME, email: 'me@x.test', firstName: 'Me', lastName: 'Myself' } as never })
    await userEvent.type(box(), 'Thanks @ad')
    const list = await screen.findByRole('listbox', { name: 'People to mention' })
    // The server is asked for what follows @ once typing pauses, not for every letter.
    await waitFor(() => expect(mentionQueries).toContain('ad'))
    expect(mentionQueries).not.toContain('a')
    // Ada and Adam match "ad"; the signed-in member is never suggested.
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual([expect.stringContaining('Ada Lovelace'), expect.stringContaining('Adam Smith')]),
    )
    const options = within(list).getAllByRole('option')
    expect(box()).toHaveAttribute('aria-controls', list.id)
    expect(box()).toHaveAttribute('aria-activedescendant', options[0]!.id)
    expect(options[0]).toHaveAttribute('aria-selected', 'true')

    await userEvent.keyboard('{ArrowDown}')
    expect(box()).toHaveAttribute('aria-activedescendant', options[1]!.id)
    await userEvent.keyboard('{ArrowDown}') // wraps around
    await userEvent.keyboard('{Enter}')
    // The member reads the name; what is sent keeps the markup.
    expect(box().value).toBe('Thanks @Ada Lovelace ')
    expect(stored).toBe(`Thanks [Ada Lovelace](${ADA}) `)
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
    // The caret is after the mention, so typing goes on from there.
    await userEvent.type(box(), 'hi')
    expect(box().value).toBe('Thanks @Ada Lovelace hi')
    expect(stored).toBe(`Thanks [Ada Lovelace](${ADA}) hi`)
    // A mention goes whole: a Backspace into it removes the name, never half of it.
    await userEvent.type(box(), '{Backspace}{Backspace}{Backspace}{Backspace}')
    expect(box().value).toBe('Thanks ')
    expect(stored).toBe('Thanks ')
  })

  it('shows a mention of an edited text as @Display Name, and Enter picks only from the answer to what is typed now', async () => {
    api()
    let stored = ''
    await renderInApp(<Harness initial={`Hi [Ada Lovelace](${ADA}) and `} onValue={(v) => (stored = v)} />)
    expect(box().value).toBe('Hi @Ada Lovelace and ')
    await userEvent.type(box(), '@ad')
    const list = await screen.findByRole('listbox', {
      name: 'People to mention',
    })
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(2))
    // "am" and Enter come before the answer for "adam": the list still shows
    // the answer for "ad", whose first is Ada, and Enter must not pick her.
    await userEvent.type(box(), 'am{Enter}')
    await waitFor(() => expect(stored).toBe(`Hi [Ada Lovelace](${ADA}) and [Adam Smith](${ADAM}) `))
    expect(box().value).toBe('Hi @Ada Lovelace and @Adam Smith ')
  })

  it('limits mentions to whom canMention allows, and Escape closes the list', async () => {
    api()
    await renderInApp(<Harness canMention={(id) => id === ADAM} />)
    await userEvent.type(box(), '@')
    const list = await screen.findByRole('listbox')
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([expect.stringContaining('Adam Smith')])
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
    expect(box()).not.toHaveAttribute('aria-activedescendant')
    expect(box().value).toBe('@')
  })

  it('suggests hashtags after # once typing pauses (250 ms), and a click inserts one', async () => {
    const { tagQueries } = api()
    await renderInApp(<Harness />)
    await userEvent.type(box(), 'Learning #go')
    const list = await screen.findByRole('listbox', { name: 'Hashtags' })
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['#golang5 posts', '#goals2 posts']),
    )
    // Debounced: no request for the prefixes typed on the way.
    expect(tagQueries).not.toContain('g')
    expect(tagQueries).toContain('go')
    await userEvent.click(within(list).getByRole('option', { name: /golang/ }))
    expect(box().value).toBe('Learning #golang ')
    expect(box()).toHaveFocus()
  })
})
