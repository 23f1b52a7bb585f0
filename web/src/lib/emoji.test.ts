import { describe, expect, it } from 'vitest'
import { convertEmoji, emojiByShortcode, emojiGroups, emoticons } from './emoji'

describe('convertEmoji', () => {
  it('converts a known :shortcode: when its closing colon is typed', () => {
    expect(convertEmoji('hi :smile:', 10)).toEqual({ text: 'hi 😄', caret: 5 })
    expect(convertEmoji(':+1:', 4)).toEqual({ text: '👍', caret: 2 })
    expect(convertEmoji(':tada: after', 6)).toEqual({ text: '🎉 after', caret: 2 })
  })
  it('leaves unknown shortcodes, times and addresses alone', () => {
    expect(convertEmoji('hi :nope:', 9)).toBeNull()
    expect(convertEmoji('at 10:30:', 9)).toBeNull()
    expect(convertEmoji('https://x.io ', 13)).toBeNull()
  })
  it('converts an emoticon once a space follows it', () => {
    expect(convertEmoji('ok :) ', 6)).toEqual({ text: 'ok 🙂 ', caret: 6 })
    expect(convertEmoji('ok :)', 5)).toBeNull()
    expect(convertEmoji('a:) ', 4)).toBeNull()
  })
})

describe('the emoji set (spec 001 §9)', () => {
  const all = emojiGroups.flatMap((g) => g.emoji)
  it('offers each emoji once, with a name and a shortcode', () => {
    expect(new Set(all.map((x) => x.char)).size).toBe(all.length)
    for (const x of all) {
      expect(x.name).not.toBe('')
      expect(x.shortcodes.length).toBeGreaterThan(0)
    }
  })
  it('shows no skin tones', () => {
    // The Fitzpatrick modifiers U+1F3FB..U+1F3FF.
    expect(all.filter((x) => /[\u{1F3FB}-\u{1F3FF}]/u.test(x.char))).toEqual([])
  })
  it('gives each shortcode one emoji, and every emoticon a known emoji', () => {
    const codes = all.flatMap((x) => x.shortcodes)
    expect(new Set(codes).size).toBe(codes.length)
    expect(emojiByShortcode.get('+1')).toBe('👍')
    expect([...emoticons.values()].every((v) => typeof v === 'string' && v.length > 0)).toBe(true)
  })
})
