// readNdjson reads a newline-delimited JSON body (application/x-ndjson) as
// it arrives: the bytes are decoded as UTF-8 (a character split across two
// chunks is kept whole), cut at each newline, and every non-blank line is
// parsed on its own. A last line without a newline still counts. A line
// that is not JSON is passed to onBadLine and skipped, so one bad line does
// not lose the rest of the answer.

export type ReadNdjsonOptions = {
  /** Stops reading (and cancels the body) when aborted. */
  signal?: AbortSignal
  /** Told of each line that is not JSON; by default a console warning. */
  onBadLine?: (line: string, error: unknown) => void
}

const warnBadLine = (line: string, error: unknown) => console.warn('ndjson: a line is not JSON', line.slice(0, 200), error)

export async function* readNdjson(body: ReadableStream<Uint8Array>, { signal, onBadLine = warnBadLine }: ReadNdjsonOptions = {}): AsyncGenerator<unknown> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const abort = () => void reader.cancel().catch(() => {})
  signal?.addEventListener('abort', abort)
  let buffer = ''
  function* lines(final: boolean): Generator<unknown> {
    let nl = buffer.indexOf('\n')
    while (nl >= 0 || (final && buffer.length > 0)) {
      const end = nl >= 0 ? nl : buffer.length
      const line = buffer.slice(0, end).trim()
      buffer = buffer.slice(end + 1)
      if (line) {
        let value: unknown
        let ok = true
        try {
          value = JSON.parse(line)
        } catch (e) {
          ok = false
          onBadLine(line, e)
        }
        if (ok) yield value
      }
      nl = buffer.indexOf('\n')
    }
  }
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError')
      const { done, value } = await reader.read()
      if (done) break
      buffer += decoder.decode(value, { stream: true })
      yield* lines(false)
    }
    if (signal?.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError')
    buffer += decoder.decode()
    yield* lines(true)
  } finally {
    signal?.removeEventListener('abort', abort)
    // A consumer that stops early (an error, a break) releases the body.
    reader.cancel().catch(() => {})
  }
}
