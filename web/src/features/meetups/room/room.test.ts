import { describe, expect, it } from 'vitest'
import { fitBox, focusLayout, galleryFit, gridSize, pageSize, visiblePeers } from './grid'
import { mediaErrorKey } from './media-errors'
import { mirrorStore, readMirror } from './use-room'

describe('peers grid (spec 002 §9)', () => {
  it('has 2/3/4/6 columns by width, 3 rows on small screens and 2 otherwise, and keeps at most 8 peers', () => {
    expect([400, 800, 1200, 1600].map(gridSize)).toEqual([
      { columns: 2, rows: 3 },
      { columns: 3, rows: 2 },
      { columns: 4, rows: 2 },
      { columns: 6, rows: 2 },
    ])
    expect([400, 800, 1200, 1600].map(pageSize)).toEqual([6, 6, 8, 8])
  })

  it('moves the dominant speaker into view', () => {
    const ids = ['a', 'b', 'c', 'd', 'e']
    expect(visiblePeers(ids, ['e'], 3)).toEqual(['a', 'b', 'e'])
    expect(visiblePeers(ids, ['b'], 3)).toEqual(['a', 'b', 'c'])
    expect(visiblePeers(ids, [], 3)).toEqual(['a', 'b', 'c'])
  })
})

describe('tiles that fill the stage', () => {
  it('makes gallery tiles 16:9 and as large as the stage allows', () => {
    // One person: one tile as wide as the stage, or as high.
    expect(galleryFit({ width: 1000, height: 700 }, 1, 4)).toEqual({ columns: 1, rows: 1, width: 1000, height: 563 })
    expect(galleryFit({ width: 1000, height: 400 }, 1, 4)).toEqual({ columns: 1, rows: 1, width: 711, height: 400 })
    // Two on a wide, low stage: side by side; on a phone: one above the other, the phone's width.
    expect(galleryFit({ width: 1000, height: 450 }, 2, 4)).toMatchObject({ columns: 2, rows: 1, width: 496, height: 279 })
    expect(galleryFit({ width: 342, height: 620 }, 2, 2)).toMatchObject({ columns: 1, rows: 2, width: 342, height: 192 })
    // Eight: the spec's 4 columns and 2 rows on a low stage; on a taller one, 3 by 3 makes larger tiles.
    expect(galleryFit({ width: 1000, height: 300 }, 8, 4)).toMatchObject({ columns: 4, rows: 2, width: 244 })
    expect(galleryFit({ width: 1000, height: 700 }, 8, 4)).toMatchObject({ columns: 3, rows: 3, width: 328 })
    // Six on a phone: 2 columns, 3 rows (spec 002 §9).
    expect(galleryFit({ width: 342, height: 620 }, 6, 2)).toMatchObject({ columns: 2, rows: 3, width: 167, height: 94 })
  })

  it('keeps every gallery inside its stage, and never wider than the columns the spec gives', () => {
    for (const area of [
      { width: 1018, height: 690 },
      { width: 342, height: 620 },
      { width: 700, height: 300 },
    ])
      for (let n = 1; n <= 8; n++)
        for (const max of [2, 3, 4, 6]) {
          const f = galleryFit(area, n, max)
          expect(f.columns).toBeLessThanOrEqual(max)
          expect(f.columns * f.rows).toBeGreaterThanOrEqual(n)
          expect(f.columns * f.width + (f.columns - 1) * 8).toBeLessThanOrEqual(area.width)
          expect(f.rows * f.height + (f.rows - 1) * 8).toBeLessThanOrEqual(area.height)
          expect(Math.abs(f.width / f.height - 16 / 9)).toBeLessThan(0.05)
        }
  })

  it('gives a screen share or the speaker the large area, with the others in a strip beside it, or below it on a phone', () => {
    // Beside: the strip a fifth of the width; the large tile 16:9 in the rest, or in the screen's own proportions.
    const wide = focusLayout({ width: 1000, height: 650 }, 3)
    expect(wide).toMatchObject({ direction: 'row', main: { width: 792, height: 446 }, strip: { width: 200, height: 650 } })
    expect(wide.fit).toMatchObject({ columns: 1, rows: 3, width: 200, height: 113 })
    expect(focusLayout({ width: 1000, height: 650 }, 3, 4 / 3).main).toEqual({ width: 792, height: 594 })
    // Below, on a phone: the large tile the phone's width, the others half of it, kept together.
    const phone = focusLayout({ width: 342, height: 620 }, 2)
    expect(phone).toMatchObject({ direction: 'column', main: { width: 342, height: 192 }, strip: { width: 342, height: 94 } })
    expect(phone.fit).toMatchObject({ columns: 2, rows: 1, width: 167, height: 94 })
    const five = focusLayout({ width: 342, height: 620 }, 5)
    expect(five.fit).toMatchObject({ columns: 2, rows: 3 })
    expect(five.strip.height).toBeLessThanOrEqual(620 - 192 - 8)
    expect(fitBox({ width: 100, height: 100 })).toEqual({ width: 100, height: 56 })
    // Alone: the large tile takes the stage.
    expect(focusLayout({ width: 1000, height: 650 }, 0).main).toEqual({ width: 1000, height: 563 })
  })
})

describe('media errors (spec 002 §8)', () => {
  const err = (name: string, message = '') => Object.assign(new Error(message), { name })
  it('maps the provider codes and the browser errors to their messages', () => {
    expect(mediaErrorKey({ code: 3003 }, 'camera')).toBe('meetups.errors.3003')
    expect(mediaErrorKey({ code: 4005 }, 'connection')).toBe('meetups.errors.network')
    expect(mediaErrorKey({ code: 3008 }, 'camera')).toBeNull()
    expect(mediaErrorKey(err('NotAllowedError'), 'camera')).toBe('meetups.errors.3001')
    expect(mediaErrorKey(err('NotAllowedError', 'Permission denied by system'), 'microphone')).toBe('meetups.errors.3002')
    expect(mediaErrorKey(err('NotReadableError'), 'camera')).toBe('meetups.errors.3003')
    expect(mediaErrorKey(err('NotFoundError'), 'microphone')).toBe('meetups.errors.micNotFound')
    expect(mediaErrorKey(err('NotAllowedError'), 'screen')).toBe('meetups.errors.screenShare')
    expect(mediaErrorKey(err('Weird'), 'camera')).toBe('meetups.errors.unknown')
  })
})

describe('the mirror setting (spec 002 §3 "Local settings")', () => {
  it('is on unless meetups.mirrorVideo holds false, and is kept as true or false', () => {
    expect(readMirror()).toBe(true)
    localStorage.setItem('meetups.mirrorVideo', 'false')
    expect(readMirror()).toBe(false)
    mirrorStore.set(true)
    expect(localStorage.getItem('meetups.mirrorVideo')).toBe('true')
    expect(readMirror()).toBe(true)
  })
})
