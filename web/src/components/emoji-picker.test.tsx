import { describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderInApp } from '@/test/utils'
import { emojiGroups } from '@/lib/emoji'
import { EmojiPicker } from './emoji-picker'

const open = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Insert an emoji' }))
  return screen.findByRole('dialog', { name: 'Emoji picker' })
}

describe('EmojiPicker (spec 001 §9)', () => {
  it('shows the whole set in its labelled groups, the first emoji focused', async () => {
    await renderInApp(<EmojiPicker onPick={() => {}} />)
    const picker = await open()
    const groups = within(picker).getAllByRole('group')
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['Smileys', 'Gestures', 'Hearts', 'Nature', 'Food and drink', 'Celebrations', 'Objects'])
    const all = emojiGroups.flatMap((g) => g.emoji)
    expect(within(picker).getAllByRole('button').map((b) => b.textContent)).toEqual(all.map((x) => x.char))
    expect(within(picker).getByRole('button', { name: all[0]!.name })).toHaveFocus()
  })

  it('is one tab stop that arrows move within, and Enter picks and closes', async () => {
    const onPick = vi.fn()
    await renderInApp(<EmojiPicker onPick={onPick} />)
    const picker = await open()
    expect(within(picker).getAllByRole('button').filter((b) => b.tabIndex === 0)).toHaveLength(1)
    // Right, then down a row of 8: the tenth emoji.
    await userEvent.keyboard('{ArrowRight}{ArrowDown}')
    const tenth = emojiGroups.flatMap((g) => g.emoji)[9]!
    expect(within(picker).getByRole('button', { name: tenth.name })).toHaveFocus()
    await userEvent.keyboard('{Enter}')
    expect(onPick).toHaveBeenCalledWith(tenth.char)
    expect(screen.queryByRole('dialog', { name: 'Emoji picker' })).toBeNull()
  })

  it('cannot be opened when disabled', async () => {
    await renderInApp(<EmojiPicker onPick={() => {}} disabled />)
    expect(screen.getByRole('button', { name: 'Insert an emoji' })).toBeDisabled()
  })
})
