import { describe, expect, it } from 'vitest'
import { IdleDetector, type IdleEnvironment } from './idle'

// A clock, timers and events the test drives by hand.
function fakeEnvironment() {
  let now = 0
  let hidden = false
  let timers: Array<{ id: number; at: number; fn: () => void }> = []
  let nextId = 0
  const listeners = new Map<string, Set<() => void>>()
  const env: IdleEnvironment = {
    now: () => now,
    setTimer: (fn, ms) => {
      const id = ++nextId
      timers.push({ id, at: now + ms, fn })
      return id
    },
    clearTimer: (id) => {
      timers = timers.filter((t) => t.id !== id)
    },
    hidden: () => hidden,
    listen: (event, fn) => {
      let set = listeners.get(event)
      if (!set) listeners.set(event, (set = new Set()))
      set.add(fn)
      return () => set.delete(fn)
    },
  }
  const fire = (event: string) => listeners.get(event)?.forEach((fn) => fn())
  return {
    env,
    /** advance moves the clock by ms, running the timers due on the way. */
    advance(ms: number) {
      const end = now + ms
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0]
        if (!due) break
        timers = timers.filter((t) => t !== due)
        now = due.at
        due.fn()
      }
      now = end
    },
    input: () => fire('pointermove'),
    key: () => fire('keydown'),
    setHidden(h: boolean) {
      hidden = h
      fire('visibilitychange')
    },
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
    timerCount: () => timers.length,
  }
}

const AWAY = 5 * 60_000

describe('IdleDetector', () => {
  it('reports idle after the away time without input, and active on the next input', () => {
    const f = fakeEnvironment()
    const changes: boolean[] = []
    const d = new IdleDetector(AWAY, (idle) => changes.push(idle), f.env)
    f.advance(AWAY - 1)
    expect(changes).toEqual([])
    f.advance(1)
    expect(changes).toEqual([true])
    expect(d.isIdle).toBe(true)
    f.key()
    expect(changes).toEqual([true, false])
    expect(d.isIdle).toBe(false)
  })

  it('counts the away time from the last input', () => {
    const f = fakeEnvironment()
    const changes: boolean[] = []
    new IdleDetector(AWAY, (idle) => changes.push(idle), f.env)
    for (let i = 0; i < 10; i++) {
      f.advance(AWAY / 2)
      f.input()
    }
    expect(changes).toEqual([])
    f.advance(AWAY - 1)
    expect(changes).toEqual([])
    f.advance(1)
    expect(changes).toEqual([true])
  })

  it('reports a hidden tab idle after the away time, and active once shown', () => {
    const f = fakeEnvironment()
    const changes: boolean[] = []
    new IdleDetector(AWAY, (idle) => changes.push(idle), f.env)
    f.advance(AWAY - 1000)
    f.setHidden(true)
    f.advance(AWAY - 1)
    expect(changes).toEqual([])
    f.advance(1)
    expect(changes).toEqual([true])
    f.setHidden(false)
    expect(changes).toEqual([true, false])
    // Shown again counts as input: idle again only after the away time.
    f.advance(AWAY - 1)
    expect(changes).toEqual([true, false])
    f.advance(1)
    expect(changes).toEqual([true, false, true])
  })

  it('takes a new away time, and stops listening when stopped', () => {
    const f = fakeEnvironment()
    const changes: boolean[] = []
    const d = new IdleDetector(AWAY, (idle) => changes.push(idle), f.env)
    f.advance(60_000)
    d.setAwayAfter(60_000)
    expect(changes).toEqual([true])
    d.stop()
    expect(f.listenerCount()).toBe(0)
    expect(f.timerCount()).toBe(0)
    f.input()
    expect(changes).toEqual([true])
  })
})
