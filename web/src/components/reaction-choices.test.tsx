import { describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderInApp } from '@/test/utils'
import { ReactionChoices } from './reaction-choices'

describe('ReactionChoices (spec 001 "Reactions", spec 002 "Private chat")', () => {
  it('offers the five kinds as their glyphs, named by kind, none pressed without a reaction', async () => {
    await renderInApp(<ReactionChoices label="React" chosen={null} onChoose={() => {}} />)
    const group = screen.getByRole('group', { name: 'React' })
    const buttons = within(group).getAllByRole('button')
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['Like', 'Love', 'Smile', 'Dislike', 'Neutral'])
    expect(buttons.map((b) => b.textContent)).toEqual(['👍', '❤️', '😊', '👎', '😐'])
    expect(buttons.every((b) => b.getAttribute('aria-pressed') === 'false')).toBe(true)
  })

  it('sets another kind, and clears the current one chosen again', async () => {
    const onChoose = vi.fn()
    await renderInApp(<ReactionChoices label="React" chosen="loved" onChoose={onChoose} />)
    await userEvent.click(screen.getByRole('button', { name: 'Like' }))
    expect(onChoose).toHaveBeenLastCalledWith('liked')
    await userEvent.click(screen.getByRole('button', { name: 'Love', pressed: true }))
    expect(onChoose).toHaveBeenLastCalledWith(null)
  })

  it('says on the current kind that choosing it removes it, when given the words', async () => {
    await renderInApp(<ReactionChoices label="Choose a reaction" chosen="smiled" onChoose={() => {}} removeLabel="Remove your reaction" />)
    expect(screen.getByRole('button', { name: 'Smile (Remove your reaction)', pressed: true })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Like', pressed: false })).toBeInTheDocument()
  })
})
