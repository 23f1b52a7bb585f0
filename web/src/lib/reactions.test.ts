import { describe, expect, it } from 'vitest'
import { REACTION_GLYPHS, REACTION_KINDS, toggledReaction } from './reactions'

describe('the reaction glyph set (spec 001 "Reactions", §9: 5 kinds)', () => {
  it('offers the five kinds of the contract, in the pickers’ order', () => {
    expect(REACTION_KINDS).toEqual(['liked', 'loved', 'smiled', 'disliked', 'neutral'])
  })
  it('shows each kind as its own glyph', () => {
    expect(REACTION_KINDS.map((k) => REACTION_GLYPHS[k])).toEqual(['👍', '❤️', '😊', '👎', '😐'])
    expect(new Set(Object.values(REACTION_GLYPHS)).size).toBe(REACTION_KINDS.length)
  })
})

describe('toggledReaction (spec 001 "Reactions", spec 002 "Private chat")', () => {
  it('sets another kind, and clears the same one chosen again', () => {
    expect(toggledReaction(null, 'liked')).toBe('liked')
    expect(toggledReaction(undefined, 'loved')).toBe('loved')
    expect(toggledReaction('liked', 'loved')).toBe('loved')
    expect(toggledReaction('liked', 'liked')).toBeNull()
  })
})
