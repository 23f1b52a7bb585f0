import { describe, expect, it } from 'vitest'
import { importLine, progressPercent, readImport } from './import-stream'

const stream = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const s of chunks) c.enqueue(new TextEncoder().encode(s))
      c.close()
    },
  })

describe('the member import answer (NDJSON)', () => {
  it('reports each progress line and resolves with the report', async () => {
    const seen: number[] = []
    const report = await readImport(
      stream(
        '{"type":"progress","processed":1,"total":4}\n{"type":"progr',
        'ess","processed":4,"total":4}\n',
        '{"type":"report","added":2,"existing":1,"skipped":[{"row":3,"email":"x","reason":"invalidEmail","message":"bad"}]}',
      ),
      (p) => seen.push(progressPercent(p)),
    )
    expect(seen).toEqual([25, 100])
    expect(report).toEqual({ type: 'report', added: 2, existing: 1, skipped: [{ row: 3, email: 'x', reason: 'invalidEmail', message: 'bad' }], toInvite: [] })
  })

  it('rejects an answer without a report', async () => {
    await expect(readImport(stream('{"type":"progress","processed":1,"total":1}\n'), () => {})).rejects.toThrow()
  })

  it('ignores lines it does not know', () => {
    expect(importLine({ type: 'progress', processed: '1', total: 2 })).toBeUndefined()
    expect(importLine(null)).toBeUndefined()
    expect(importLine({ type: 'other' })).toBeUndefined()
    expect(progressPercent({ processed: 0, total: 0 })).toBe(0)
  })
})
