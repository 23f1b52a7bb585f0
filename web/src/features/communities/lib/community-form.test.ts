import { describe, expect, it } from 'vitest'
import { priceCents } from '@/lib/price'
import { communityFormValues, isVideoLink, toCommunityBody, validateCommunityForm } from './community-form'

const valid = { ...communityFormValues(), name: 'Leaders', description: 'For leaders.', isFree: false }

describe('the community form (spec 000 §5)', () => {
  it('starts free, as a new forum does, with the default price of 3995 cents ready, without single sign-on', () => {
    expect(communityFormValues()).toMatchObject({ price: '39.95', isFree: true, ssoAccess: false })
    expect(validateCommunityForm(valid)).toEqual({})
  })

  it('needs a name of 1 to 75 characters after trimming', () => {
    expect(validateCommunityForm({ ...valid, name: '   ' }).name).toBe('required')
    expect(validateCommunityForm({ ...valid, name: 'x'.repeat(75) }).name).toBeUndefined()
    expect(validateCommunityForm({ ...valid, name: 'x'.repeat(76) }).name).toBe('tooLong')
    expect(validateCommunityForm({ ...valid, name: `  ${'x'.repeat(75)}  ` }).name).toBeUndefined()
  })

  it('needs a description of at most 750 characters', () => {
    expect(validateCommunityForm({ ...valid, description: '\n ' }).description).toBe('required')
    expect(validateCommunityForm({ ...valid, description: 'x'.repeat(750) }).description).toBeUndefined()
    expect(validateCommunityForm({ ...valid, description: 'x'.repeat(751) }).description).toBe('tooLong')
  })

  it('takes a video link only from YouTube or Vimeo', () => {
    for (const ok of ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://youtu.be/dQw4w9WgXcQ', 'https://vimeo.com/123', 'https://player.vimeo.com/video/1']) {
      expect(isVideoLink(ok)).toBe(true)
    }
    for (const bad of ['https://example.com/v.mp4', 'https://notyoutube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/watch?v=short', 'javascript:alert(1)', 'vimeo.com/1']) expect(isVideoLink(bad)).toBe(false)
    expect(validateCommunityForm({ ...valid, video: 'https://example.com/v' }).video).toBe('invalidVideo')
    expect(validateCommunityForm({ ...valid, videoCover: 'not a url' }).videoCover).toBe('invalidUrl')
  })

  it('reads the price in dollars as cents from 0 to 9999900', () => {
    expect(priceCents('0')).toBe(0)
    expect(priceCents('39.9')).toBe(3990)
    expect(priceCents('99999')).toBe(9_999_900)
    expect(priceCents('99999.01')).toBeUndefined()
    expect(priceCents('-1')).toBeUndefined()
    expect(priceCents('1.234')).toBeUndefined()
    expect(validateCommunityForm({ ...valid, price: 'abc' }).price).toBe('invalidPrice')
    expect(validateCommunityForm({ ...valid, price: 'abc', isFree: true }).price).toBeUndefined()
  })

  it('sends trimmed text, empty links as null and the price in cents', () => {
    expect(toCommunityBody({ ...valid, name: ' A ', description: ' B ', price: '12.5', video: ' ' })).toEqual({
      name: 'A',
      description: 'B',
      membershipType: 'invitationOnly',
      image: null,
      video: null,
      videoCover: null,
      ssoAccess: false,
      price: 1250,
      isFree: false,
    })
  })
})
