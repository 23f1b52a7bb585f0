import { describe, expect, it, vi } from 'vitest'
import { readNdjson } from './ndjson'

/** body streams the given chunks (strings, or raw bytes) one by one. */
function body(chunks: Array<string | Uint8Array>) {
  const enc = new TextEncoder()
  let cancelled = false
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      const next = chunks.shift()
      if (next === undefined) c.close()
      else c.enqueue(typeof next === 'string' ? enc.encode(next) : next)
    },
    cancel() {
      cancelled = true
    },
  })
  return { stream, cancelled: () => cancelled }
}

async function all(stream: ReadableStream<Uint8Array>, opts?: Parameters<typeof readNdjson>[1]) {
  const out: unknown[] = []
  for await (const v of readNdjson(stream, opts)) out.push(v)
  return out
}

describe('readNdjson', () => {
  it('joins lines split across chunks', async () => {
    const { stream } = body(['{"type":"thr', 'eads","n":1}\n{"type":"com', 'pletion","text":"Hel', 'lo"}\n', '{"type":"answer"}\n'])
    expect(await all(stream)).toEqual([{ type: 'threads', n: 1 }, { type: 'completion', text: 'Hello' }, { type: 'answer' }])
  })

  it('keeps a character whose bytes are split between chunks', async () => {
    const bytes = new TextEncoder().encode('{"text":"café ☕"}\n')
    const cut = bytes.length - 4 // inside the three bytes of ☕
    const { stream } = body([bytes.slice(0, cut), bytes.slice(cut)])
    expect(await all(stream)).toEqual([{ text: 'café ☕' }])
  })

  it('reads a last line without a newline, and skips blank lines and \\r', async () => {
    const { stream } = body(['{"a":1}\r\n\n  \n{"b":2}'])
    expect(await all(stream)).toEqual([{ a: 1 }, { b: 2 }])
  })

  it('skips a line that is not JSON and goes on', async () => {
    const bad = vi.fn()
    const { stream } = body(['{"a":1}\n{not json\n{"b":2}\n'])
    expect(await all(stream, { onBadLine: bad })).toEqual([{ a: 1 }, { b: 2 }])
    expect(bad).toHaveBeenCalledTimes(1)
    expect(bad.mock.calls[0]![0]).toBe('{not json')
  })

  it('stops and cancels the body when aborted', async () => {
    const ac = new AbortController()
    const { stream, cancelled } = body(['{"a":1}\n', '{"b":2}\n', '{"c":3}\n'])
    const out: unknown[] = []
    await expect(async () => {
      for await (const v of readNdjson(stream, { signal: ac.signal })) {
        out.push(v)
        ac.abort()
      }
    }).rejects.toThrow()
    expect(out).toEqual([{ a: 1 }])
    expect(cancelled()).toBe(true)
  })
})
