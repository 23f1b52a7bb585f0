import { describe, expect, it } from 'vitest'
import { imageFileError, isEmail, isHttpUrl } from './forms'

describe('shared form checks', () => {
  it('takes jpeg, png, gif and webp images up to 3,000,000 bytes (spec 000 §5)', () => {
    expect(imageFileError({ type: 'image/png', size: 3_000_000 })).toBeUndefined()
    expect(imageFileError({ type: 'image/jpeg', size: 3_000_001 })).toBe('imageSize')
    expect(imageFileError({ type: 'image/svg+xml', size: 10 })).toBe('imageType')
  })
  it('knows links and email addresses', () => {
    expect(isHttpUrl('https://example.com/a.png')).toBe(true)
    expect(isHttpUrl('javascript:alert(1)')).toBe(false)
    expect(isEmail('a@b.co')).toBe(true)
    expect(isEmail('a@b')).toBe(false)
  })
})
