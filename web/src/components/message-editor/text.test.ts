import { describe, expect, it } from 'vitest'
import { displayText, editDisplayed, editorInput, findTrigger, inMention, matchesPerson, replaceDisplayed, textLength, truncate } from './text'

describe('editor input (spec 001 §5 "Posts and comments")', () => {
  it('drops leading whitespace and cuts at the limit in code points', () => {
    expect(editorInput('  \n hello ', 400)).toBe('hello ')
    expect(editorInput('abcdef', 4)).toBe('abcd')
    // An emoji is one character, as the server counts them.
    expect(textLength('😀😀a')).toBe(3)
    expect(truncate('😀😀😀', 2)).toBe('😀😀')
    expect(truncate('short', 10)).toBe('short')
  })
})

describe('findTrigger', () => {
  it('finds a mention or hashtag being typed at the caret', () => {
    expect(findTrigger('hi @ad', 6)).toEqual({ kind: 'mention', start: 3, end: 6, query: 'ad' })
    expect(findTrigger('@', 1)).toEqual({ kind: 'mention', start: 0, end: 1, query: '' })
    expect(findTrigger('see #go_lang', 12)).toEqual({ kind: 'hashtag', start: 4, end: 12, query: 'go_lang' })
    expect(findTrigger('(#x', 3)).toEqual({ kind: 'hashtag', start: 1, end: 3, query: 'x' })
  })
  it('ignores triggers inside words, after spaces and with other characters', () => {
    expect(findTrigger('mail@host', 9)).toBeNull()
    expect(findTrigger('page/#frag', 10)).toBeNull()
    expect(findTrigger('@ada lovelace', 13)).toBeNull()
    expect(findTrigger('#a-b', 4)).toBeNull()
    expect(findTrigger('plain text', 10)).toBeNull()
    // The caret before the query's end: only what precedes it counts.
    expect(findTrigger('@adam', 3)).toEqual({ kind: 'mention', start: 0, end: 3, query: 'ad' })
  })
})

describe('matchesPerson', () => {
  it('matches a query against the start of a name', () => {
    expect(matchesPerson('', 'Ada', 'Lovelace')).toBe(true)
    expect(matchesPerson('lov', 'Ada', 'Lovelace')).toBe(true)
    expect(matchesPerson('ADA', 'Ada', 'Lovelace')).toBe(true)
    expect(matchesPerson('ace', 'Ada', 'Lovelace')).toBe(false)
  })
})

describe('the displayed text (mentions as @Display Name)', () => {
  const ID = '0190a8b2-0000-7000-8000-0000000000a1'
  const stored = `Hi [Ada Lovelace](${ID}) there`

  it('shows each mention as @Display Name', () => {
    expect(displayText(stored)).toBe('Hi @Ada Lovelace there')
    expect(displayText('[not](a mention)')).toBe('[not](a mention)')
  })

  it('keeps the markup of a mention when text is typed around it', () => {
    expect(editDisplayed(stored, 'Hi @Ada Lovelace there!', 23)).toEqual({
      text: `${stored}!`,
      caret: 23,
    })
    expect(editDisplayed(stored, 'Oh Hi @Ada Lovelace there', 3)).toEqual({
      text: `Oh ${stored}`,
      caret: 3,
    })
    // An '@' typed just before the mention's own '@' is not inside it.
    expect(editDisplayed(stored, 'Hi @@Ada Lovelace there', 4).text).toBe(`Hi @[Ada Lovelace](${ID}) there`)
  })

  it('removes a mention whole when an edit cuts into it', () => {
    expect(editDisplayed(stored, 'Hi @Ada Lovelac there', 15)).toEqual({
      text: 'Hi  there',
      caret: 3,
    })
    expect(editDisplayed(stored, 'Hi @Ada XLovelace there', 9)).toEqual({
      text: 'Hi X there',
      caret: 4,
    })
  })

  it('inserts stored text in place of a displayed range', () => {
    expect(replaceDisplayed(stored, 17, 22, `[Adam Smith](${ID})`)).toEqual({
      text: `Hi [Ada Lovelace](${ID}) [Adam Smith](${ID})`,
      caret: 28,
    })
    expect(inMention(stored, 3)).toBe(true)
    expect(inMention(stored, 2)).toBe(false)
    expect(inMention(stored, 16)).toBe(false)
  })
})
