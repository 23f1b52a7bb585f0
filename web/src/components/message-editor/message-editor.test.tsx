import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderInApp } from '@/test/utils'
import { MessageEditor, type MessageEditorProps, type MessageSuggestions } from './message-editor'

const ADA = '0190a8b2-0000-7000-8000-0000000000a1'

function Harness(props: Partial<MessageEditorProps> & { onValue?: (v: string) => void; initial?: string }) {
  const [value, setValue] = useState(props.initial ?? '')
  return (
    <MessageEditor
      label="Message"
      {...props}
      value={value}
      onChange={(v) => {
        setValue(v)
        props.onValue?.(v)
      }}
    />
  )
}

const box = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement

// A source that answers at once, with no server: what the editor does with
// the answer is the editor's; where a forum's answer comes from is tested
// beside forumSuggestions.
const fixed: MessageSuggestions = {
  useMentions: (query, enabled) => ({
    items: enabled ? [{ userId: ADA, firstName: 'Ada', lastName: 'Lovelace', avatar: null, jobTitle: '', company: '' }].filter((p) => p.firstName.toLowerCase().startsWith(query.toLowerCase())) : undefined,
    placeholder: false,
  }),
  useHashtags: () => ({ items: undefined, placeholder: false }),
}

describe('MessageEditor (spec 001 §4, §5; spec 002 "Chat")', () => {
  it('turns colon shortcuts into emoji, and the picker inserts at the caret', async () => {
    await renderInApp(<Harness />)
    await userEvent.type(box(), 'Great :tada: work :) ')
    expect(box().value).toBe('Great 🎉 work 🙂 ')
    box().setSelectionRange(5, 5)
    await userEvent.click(screen.getByRole('button', { name: 'Insert an emoji' }))
    const picker = await screen.findByRole('dialog', { name: 'Emoji picker' })
    await userEvent.click(within(picker).getByRole('button', { name: 'thumbs up' }))
    expect(box().value).toBe('Great👍 🎉 work 🙂 ')
    expect(box()).toHaveFocus()
  })

  it('drops leading whitespace and cuts at maxLength', async () => {
    const onValue = vi.fn()
    await renderInApp(<Harness maxLength={10} onValue={onValue} />)
    await userEvent.type(box(), '   hello world, long')
    expect(box().value).toBe('hello worl')
    expect(onValue).not.toHaveBeenCalledWith(expect.stringMatching(/^\s/))
    expect(screen.getByText('0 characters left')).toBeInTheDocument()
  })

  it('counts an emoji as one character, and leaves the count to the caller with countdown off', async () => {
    await renderInApp(<Harness maxLength={4} countdown={false} />)
    await userEvent.type(box(), '😀😀😀😀😀')
    expect(box().value).toBe('😀😀😀😀')
    expect(screen.queryByText(/characters? left/)).toBeNull()
  })

  it('submits on Enter without Shift when not empty; Shift+Enter is a new line', async () => {
    const onSubmit = vi.fn()
    await renderInApp(<Harness onSubmit={onSubmit} />)
    await userEvent.type(box(), '{Enter}')
    expect(onSubmit).not.toHaveBeenCalled()
    await userEvent.type(box(), 'line one{Shift>}{Enter}{/Shift}line two')
    expect(box().value).toBe('line one\nline two')
    expect(onSubmit).not.toHaveBeenCalled()
    await userEvent.type(box(), '{Enter}')
    expect(onSubmit).toHaveBeenCalledTimes(1)
    expect(box().value).toBe('line one\nline two')
  })

  it('submits an empty text when canSubmit says so (an image alone), and never when it says no', async () => {
    const onSubmit = vi.fn()
    const { unmount } = await renderInApp(<Harness onSubmit={onSubmit} canSubmit />)
    await userEvent.type(box(), '{Enter}')
    expect(onSubmit).toHaveBeenCalledTimes(1)
    unmount()
    await renderInApp(<Harness onSubmit={onSubmit} canSubmit={false} initial="text" />)
    await userEvent.type(box(), 'more{Enter}')
    expect(onSubmit).toHaveBeenCalledTimes(1)
  })

  it('without suggestions, @ and # are plain characters and Enter still submits', async () => {
    const onSubmit = vi.fn()
    await renderInApp(<Harness onSubmit={onSubmit} />)
    await userEvent.type(box(), 'see @ada #go{Enter}')
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(onSubmit).toHaveBeenCalledTimes(1)
    expect(box().value).toBe('see @ada #go')
  })

  it('with suggestions, offers what the source answers and inserts the mention markup', async () => {
    let stored = ''
    await renderInApp(<Harness suggestions={fixed} onValue={(v) => (stored = v)} />)
    await userEvent.type(box(), 'Hi @ad')
    const list = await screen.findByRole('listbox', { name: 'People to mention' })
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual([expect.stringContaining('Ada Lovelace')])
    // Enter picks once the answer is to "ad" (typing waits 250 ms before asking).
    await userEvent.keyboard('{Enter}')
    await waitFor(() => expect(box().value).toBe('Hi @Ada Lovelace '))
    expect(stored).toBe(`Hi [Ada Lovelace](${ADA}) `)
  })
})
