// The avatar's square crop: the image covers the square at zoom 1, zoom
// enlarges it about the square's centre, and the offset (in the square's
// pixels) moves it, never so far that the square shows past its edge.

export const ZOOM_MIN = 1
export const ZOOM_MAX = 3

export type Crop = { zoom: number; x: number; y: number }

/** placement is where the image is drawn in a square of side size: its top-left corner and its drawn width and height. */
export function placement(img: { width: number; height: number }, size: number, crop: Crop) {
  const scale = (size / Math.min(img.width, img.height)) * crop.zoom
  const w = img.width * scale
  const h = img.height * scale
  const x = clamp((size - w) / 2 + crop.x, size - w, 0)
  const y = clamp((size - h) / 2 + crop.y, size - h, 0)
  return { x, y, w, h }
}

/** clampCrop keeps the offset within what the zoom allows, so that a drag past an edge stops there. */
export function clampCrop(img: { width: number; height: number }, size: number, crop: Crop): Crop {
  const p = placement(img, size, crop)
  return { zoom: crop.zoom, x: p.x - (size - p.w) / 2, y: p.y - (size - p.h) / 2 }
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v))
