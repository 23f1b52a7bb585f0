import { describe, expect, it } from 'vitest'
import { normalizeLink, viewerTypeOf } from './text'

describe('normalizeLink (spec 001 §5 "Links")', () => {
  it.each([
    ['example.com', 'https://example.com/'],
    ['  www.example.com/a?b=1  ', 'https://www.example.com/a?b=1'],
    ['http://example.com/x', 'http://example.com/x'],
    ['localhost:8080/page', 'https://localhost:8080/page'],
    ['127.0.0.1:5000/p.html', 'https://127.0.0.1:5000/p.html'],
  ])('%s → %s', (input, want) => {
    expect(normalizeLink(input)).toBe(want)
  })
  it.each([
    '',
    'not a link',
    'example',
    'ftp://example.com',
    'javascript:alert(1)',
    'mailto:a@b.co',
    'https://',
    'https://user:pw@example.com',
  ])('refuses %j', (input) => {
    expect(normalizeLink(input)).toBeNull()
  })
})

describe('viewerTypeOf (spec 001 §9 "Recognised link types")', () => {
  it('plays YouTube, Vimeo and Kaltura in place and opens the rest', () => {
    expect(viewerTypeOf('https://www.youtube.com/watch?v=x')).toBe('embedded')
    expect(viewerTypeOf('https://youtu.be/x')).toBe('embedded')
    expect(viewerTypeOf('https://player.vimeo.com/video/1')).toBe('embedded')
    expect(viewerTypeOf('https://example.com/youtube')).toBe('external')
  })
})
