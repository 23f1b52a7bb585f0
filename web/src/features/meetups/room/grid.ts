// The peers grid (spec 002 §9): 2, 3, 4 or 6 columns by the screen's width,
// 2 rows (3 on small screens), at most 8 peers kept in view; the dominant
// speaker is moved into view when they are not in it.

export const MAX_PEERS = 8

/** gridSize is the columns and rows for a screen width in CSS pixels. */
export function gridSize(width: number): { columns: number; rows: number } {
  if (width < 640) return { columns: 2, rows: 3 }
  if (width < 1024) return { columns: 3, rows: 2 }
  if (width < 1536) return { columns: 4, rows: 2 }
  return { columns: 6, rows: 2 }
}

/** pageSize is how many peers are shown: what the grid holds, at most MAX_PEERS. */
export const pageSize = (width: number) => {
  const { columns, rows } = gridSize(width)
  return Math.min(MAX_PEERS, columns * rows)
}

/**
 * visiblePeers is the ids in view: the first `size` of ids, with the
 * dominant (first speaking) one swapped into the last place in view when it
 * is not already shown.
 */
export function visiblePeers(ids: string[], speakers: string[], size: number): string[] {
  const shown = ids.slice(0, size)
  const dominant = speakers.find((s) => ids.includes(s))
  if (!dominant || shown.includes(dominant) || shown.length === 0) return shown
  return [...shown.slice(0, -1), dominant]
}

// How the tiles fill the stage, as in the video apps members know: every
// tile 16:9 and as large as the stage allows (the gallery), or one large
// tile (a screen share, or the speaker) with the others in a strip beside
// it, or below it on a screen taller than wide, where a phone has it. The
// strip is sized to fit as well: nothing on the stage needs a swipe.

/** GAP is the space between tiles, in CSS pixels (Tailwind's gap-2). */
export const GAP = 8
/** RATIO is a tile's width over its height. */
export const RATIO = 16 / 9

export type Box = { width: number; height: number }
/** A gallery's columns and rows and each tile's size, in whole CSS pixels. */
export type Fit = { columns: number; rows: number; width: number; height: number }

/** Of two galleries whose tiles are within this share of the largest, the one of more columns is taken: it fills the width. */
const NEARLY = 0.95

/**
 * galleryFit is the layout of count 16:9 tiles in area with the largest
 * tiles: of 1 to maxColumns columns (and as many rows as they need), the
 * one whose tiles are widest, either the width or the height bounding them
 * (of those nearly as wide, the one of most columns).
 */
export function galleryFit(area: Box, count: number, maxColumns: number, gap = GAP): Fit {
  const none: Fit = { columns: 1, rows: Math.max(1, count), width: 0, height: 0 }
  if (count <= 0 || area.width <= 0 || area.height <= 0) return none
  const fits: Fit[] = []
  for (let columns = 1; columns <= Math.min(count, Math.max(1, maxColumns)); columns++) {
    const rows = Math.ceil(count / columns)
    const high = (area.height - (rows - 1) * gap) / rows
    const width = Math.floor(Math.min((area.width - (columns - 1) * gap) / columns, high * RATIO))
    fits.push({ columns, rows, width: Math.max(0, width), height: Math.max(0, Math.min(Math.round(width / RATIO), Math.floor(high))) })
  }
  const widest = Math.max(...fits.map((f) => f.width))
  return fits.filter((f) => f.width >= widest * NEARLY).at(-1) ?? none
}

/** The strip's width beside the large tile: a fifth of the stage, from 160 to 280 pixels. */
const STRIP = { share: 0.2, min: 160, max: 280 }
/**
 * Below the large tile (a phone), the strip's tiles are at most half its
 * width (they are the small ones), in up to 3 columns, and the large tile
 * takes at most 60% of the height.
 */
const BELOW = { columns: 3, mainShare: 0.6 }

/** fitBox is the largest box of ratio (width over height) within box, in whole pixels. */
export function fitBox(box: Box, ratio = RATIO): Box {
  if (box.width <= 0 || box.height <= 0 || !(ratio > 0)) return { width: 0, height: 0 }
  return box.width / box.height > ratio
    ? { width: Math.min(box.width, Math.round(box.height * ratio)), height: box.height }
    : { width: box.width, height: Math.min(box.height, Math.round(box.width / ratio)) }
}

/** A focus layout: the large tile's box, and the strip's box and tiles, beside it (row) or below it (column). */
export type Focus = { direction: 'row' | 'column'; main: Box; strip: Box; fit: Fit }

/**
 * focusLayout gives the large tile (of ratio, width over height: a shared
 * screen's own, 16:9 for a camera) and the strip of `others` tiles their
 * place in area: the strip beside the large tile where the area is wider
 * than tall, below it otherwise, where the strip is as high as its tiles
 * and the two are kept together. Without others the large tile has it all.
 */
export function focusLayout(area: Box, others: number, ratio = RATIO, gap = GAP): Focus {
  const none: Fit = { columns: 1, rows: 0, width: 0, height: 0 }
  if (others <= 0) return { direction: 'row', main: fitBox(area, ratio), strip: { width: 0, height: 0 }, fit: none }
  if (area.width > area.height) {
    const width = Math.round(Math.min(STRIP.max, Math.max(STRIP.min, area.width * STRIP.share)))
    const strip = { width, height: area.height }
    return { direction: 'row', main: fitBox({ width: Math.max(0, area.width - width - gap), height: area.height }, ratio), strip, fit: galleryFit(strip, others, 2, gap) }
  }
  const main = fitBox({ width: area.width, height: Math.floor(area.height * BELOW.mainShare) }, ratio)
  const below = { width: area.width, height: Math.max(0, area.height - main.height - gap) }
  let fit = galleryFit(below, others, BELOW.columns, gap)
  const half = Math.floor((area.width - gap) / 2)
  if (fit.width > half) {
    const columns = Math.min(others, 2)
    fit = { columns, rows: Math.ceil(others / columns), width: half, height: Math.round(half / RATIO) }
  }
  const strip = { width: area.width, height: Math.min(below.height, fit.rows * fit.height + (fit.rows - 1) * gap) }
  return { direction: 'column', main, strip, fit }
}
