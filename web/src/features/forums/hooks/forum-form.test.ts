import { describe, expect, it } from 'vitest'
import { formValues, toPatch, validateForumForm, type ForumFormValues } from './forum-form'

const ok: ForumFormValues = { name: 'Forum', description: 'About', image: '', exclusivity: 'inviteOnly', shareEnabled: false, isFree: true, price: '39.95' }

describe('forum form rules (spec 001 §5)', () => {
  it('accepts a valid form', () => {
    expect(validateForumForm(ok, 'inviteOnly')).toEqual({})
    expect(validateForumForm({ ...ok, image: 'https://example.com/a.png', exclusivity: 'open' }, 'inviteOnly')).toEqual({})
  })

  it('requires a name and a description that are not only whitespace', () => {
    expect(validateForumForm({ ...ok, name: '   ', description: '\n' }, 'inviteOnly')).toEqual({ name: 'required', description: 'required' })
  })

  it('limits the name to 90 and the description to 1000 characters, trimmed', () => {
    expect(validateForumForm({ ...ok, name: 'a'.repeat(90) + '  ', description: 'b'.repeat(1000) }, 'inviteOnly')).toEqual({})
    expect(validateForumForm({ ...ok, name: 'a'.repeat(91), description: 'b'.repeat(1001) }, 'inviteOnly')).toEqual({
      name: 'tooLong',
      description: 'tooLong',
    })
    // Characters, not UTF-16 units.
    expect(validateForumForm({ ...ok, name: '😀'.repeat(90) }, 'inviteOnly')).toEqual({})
  })

  it('takes an optional http(s) image URL', () => {
    expect(validateForumForm({ ...ok, image: 'not a url' }, 'inviteOnly')).toEqual({ image: 'invalidUrl' })
    expect(validateForumForm({ ...ok, image: 'javascript:alert(1)' }, 'inviteOnly')).toEqual({ image: 'invalidUrl' })
  })

  it('never turns an open forum back to invite only', () => {
    expect(validateForumForm({ ...ok, exclusivity: 'inviteOnly' }, 'open')).toEqual({ exclusivity: 'locked' })
  })

  it('trims the text and sends an empty image as null', () => {
    expect(toPatch({ ...ok, name: ' Forum ', description: ' About ', image: '  ' })).toEqual({
      name: 'Forum',
      description: 'About',
      image: null,
      exclusivity: 'inviteOnly',
      shareEnabled: false,
      isFree: true,
      price: 3995,
    })
  })

  it("offers free or paid with the community form's price rules (spec 000 §2.7, §5)", () => {
    expect(formValues()).toMatchObject({ isFree: true, price: '39.95' })
    expect(validateForumForm({ ...ok, isFree: false, price: '12.5' })).toEqual({})
    expect(toPatch({ ...ok, isFree: false, price: '12.5' })).toMatchObject({ isFree: false, price: 1250 })
    expect(validateForumForm({ ...ok, isFree: false, price: '99999.01' })).toEqual({ price: 'invalidPrice' })
    expect(validateForumForm({ ...ok, isFree: false, price: 'abc' })).toEqual({ price: 'invalidPrice' })
    // A free forum's price is not checked.
    expect(validateForumForm({ ...ok, isFree: true, price: 'abc' })).toEqual({})
  })
})
