import { describe, expect, it } from 'vitest'
import { imageFileError, isEmail, isHttpUrl, isImageAddress } from './forms'

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
  it('takes an image as a link or as the picture address the server keeps an upload at', () => {
    expect(isImageAddress('https://example.com/a.png')).toBe(true)
    expect(isImageAddress('/api/pictures/0190a000-0000-7000-8000-0000000000aa')).toBe(true)
    expect(isImageAddress('/api/pictures/not-an-id')).toBe(false)
    expect(isImageAddress('/x.png')).toBe(false)
    expect(isImageAddress('javascript:alert(1)')).toBe(false)
  })
})
