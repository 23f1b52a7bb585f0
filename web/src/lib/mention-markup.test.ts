import { describe, expect, it } from 'vitest'
import { mentionAt, mentionMarkup } from './mention-markup'

describe('mention markup (spec 001 §4 "Reading text")', () => {
  it('writes [Display Name](userId), without characters that would break it', () => {
    const id = '0190a8b2-7c1d-7e4f-8a9b-0c1d2e3f4a5b'
    expect(mentionMarkup('Ada', 'Lovelace', id)).toBe(`[Ada Lovelace](${id})`)
    expect(mentionMarkup('Ada [x]', '(Love)\nlace', id)).toBe(`[Ada x Lovelace](${id})`)
  })
  it('reads back what mentionMarkup writes, and nothing that is not a mention', () => {
    const id = '0190a8b2-7c1d-7e4f-8a9b-0c1d2e3f4a5b'
    const markup = mentionMarkup('Ada', 'Lovelace', id)
    expect(mentionAt(`${markup} and more`)).toEqual({ display: 'Ada Lovelace', userId: id, length: markup.length })
    expect(mentionAt(`[Ada](${id.toUpperCase()})`)?.userId).toBe(id)
    expect(mentionAt('[Ada](not-a-uuid)')).toBeUndefined()
    expect(mentionAt('[Ada](00000000-0000-0000-0000-000000000000)')).toBeUndefined()
    expect(mentionAt(`[A\nda](${id})`)).toBeUndefined()
    expect(mentionAt(`[Ada] (${id})`)).toBeUndefined()
  })
})
