import { describe, expect, it } from 'vitest'
import { embedFor, httpUrl, officeKind, ownBlob, pageInput, readPreview, stepZoom, viewableInline } from './media'

describe('httpUrl', () => {
  it.each([
    ['https://example.com/a', 'https://example.com/a'],
    ['http://example.com', 'http://example.com/'],
    ['javascript:alert(1)', undefined],
    ['JaVaScRiPt:alert(1)', undefined],
    [' javascript:alert(1)', undefined],
    ['data:text/html,<script>alert(1)</script>', undefined],
    ['vbscript:x', undefined],
    ['//evil.example/x', undefined],
    ['/relative', undefined],
    [42, undefined],
  ])('%s', (input, want) => expect(httpUrl(input)).toBe(want))
})

describe('embedFor', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=x', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://m.youtube.com/shorts/dQw4w9WgXcQ', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://vimeo.com/76979871', 'vimeo', 'https://player.vimeo.com/video/76979871'],
    ['https://player.vimeo.com/video/76979871?h=abc', 'vimeo', 'https://player.vimeo.com/video/76979871'],
    [
      'https://cdnapisec.kaltura.com/p/2503451/sp/250345100/embedIframeJs/uiconf_id/42912621/partner_id/2503451?iframeembed=true&entry_id=1_abcd1234',
      'kaltura',
      'https://cdnapisec.kaltura.com/p/2503451/sp/250345100/embedIframeJs/uiconf_id/42912621/partner_id/2503451?iframeembed=true&entry_id=1_abcd1234',
    ],
    [
      'https://www.kaltura.com/index.php/extwidget/preview/partner_id/2503451/uiconf_id/42912621/entry_id/0_zzzz9999/embed/dynamic',
      'kaltura',
      'https://cdnapisec.kaltura.com/p/2503451/sp/250345100/embedIframeJs/uiconf_id/42912621/partner_id/2503451?iframeembed=true&entry_id=0_zzzz9999',
    ],
  ])('%s', (url, provider, src) => expect(embedFor(url)).toEqual({ provider, src }))

  it.each([
    'https://example.com/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ"><script>alert(1)</script>',
    'https://www.youtube.com/watch?v=short',
    'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'javascript://youtube.com/%0aalert(1)',
    'https://vimeo.com/about',
    'https://www.kaltura.com/p/1/uiconf_id/2?entry_id=javascript:alert(1)',
  ])('gives no player for %s', (url) => expect(embedFor(url)).toBeUndefined())
})

describe('viewableInline', () => {
  it.each([
    ['application/pdf', 'pdf'],
    ['image/PNG', 'image'],
    ['audio/wave', 'audio'],
    ['audio/mpeg', 'audio'],
    ['video/webm', 'video'],
    ['video/mp4; codecs="avc1"', 'video'],
    ['video/avi', undefined],
    ['application/octet-stream', undefined],
    ['image/svg+xml', undefined],
    ['text/html', undefined],
    ['application/zip', undefined],
  ])('%s', (t, want) => expect(viewableInline(t)).toBe(want))
})

describe('officeKind', () => {
  it.each([
    ['Q3 plan.DOCX', 'document'],
    ['budget.xlsx', 'spreadsheet'],
    ['deck.pptx', 'presentation'],
    ['notes.pdf', undefined],
    ['docx', undefined],
  ])('%s', (name, want) => expect(officeKind(name)).toBe(want))
})

describe('stepZoom', () => {
  it('moves in steps of 0.2 between 1 and 3', () => {
    expect(stepZoom(1, 1)).toBe(1.2)
    expect(stepZoom(1.2, 1)).toBe(1.4)
    expect(stepZoom(1, -1)).toBe(1)
    expect(stepZoom(2.8, 1)).toBe(3)
    expect(stepZoom(3, 1)).toBe(3)
    let z = 1
    for (let i = 0; i < 10; i++) z = stepZoom(z, 1)
    expect(z).toBe(3)
  })
})

describe('pageInput', () => {
  it.each([
    ['2', 3, 2],
    [' 3 ', 3, 3],
    ['0', 3, undefined],
    ['4', 3, undefined],
    ['1.5', 3, undefined],
    ['two', 3, undefined],
    ['', 3, undefined],
  ])('%j of %d', (value, count, want) => expect(pageInput(value as string, count as number)).toBe(want))
})

describe('readPreview', () => {
  it('keeps strings and http(s) images only', () => {
    expect(readPreview({ title: ' T ', description: 3, image: 'javascript:alert(1)', images: ['https://i.example/a.png'] })).toEqual({
      title: 'T',
      description: undefined,
      image: 'https://i.example/a.png',
      siteName: undefined,
    })
    expect(readPreview('nope')).toEqual({})
  })
})

describe('ownBlob', () => {
  const origin = 'https://agora.example.org'
  it.each([
    ['https://agora.example.org/api/blobs/0190/a.pdf?exp=1&sig=x', 'https://agora.example.org/api/blobs/0190/a.pdf?exp=1&sig=x'],
    ['https://evil.test/api/blobs/0190/a.pdf', undefined],
    ['https://agora.example.org/somewhere/else.pdf', undefined],
    ['javascript:alert(1)', undefined],
  ])('%s', (input, want) => expect(ownBlob(input, origin)).toBe(want))
})
