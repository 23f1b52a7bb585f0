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
