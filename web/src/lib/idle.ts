// The idle detector behind the member's presence (spec 002 §4): a tab is
// idle once it has had no input for awayAfter, which a hidden tab cannot
// get, so a tab hidden that long is idle too; input, or the tab shown
// again, makes it active at once. The hub reports each change to the
// server, which adds up every tab of the member on every node.

/** The events that count as input. */
const INPUT_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const

/** IdleEnvironment is what the detector watches (a test gives its own). */
export type IdleEnvironment = {
  now: () => number
  setTimer: (fn: () => void, ms: number) => unknown
  clearTimer: (t: unknown) => void
  hidden: () => boolean
  /** listen adds a listener of an input or visibility event; it returns its removal. */
  listen: (event: string, fn: () => void) => () => void
}

function browserEnvironment(): IdleEnvironment {
  return {
    now: () => Date.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
    hidden: () => document.visibilityState === 'hidden',
    listen: (event, fn) => {
      const target: EventTarget = event === 'visibilitychange' ? document : window
      target.addEventListener(event, fn, { passive: true, capture: true })
      return () => target.removeEventListener(event, fn, { capture: true })
    },
  }
}

export class IdleDetector {
  private lastInput: number
  private timer: unknown
  private idle = false
  private readonly offs: Array<() => void>
  private readonly env: IdleEnvironment

  constructor(
    private awayAfter: number,
    private readonly onChange: (idle: boolean) => void,
    env?: IdleEnvironment,
  ) {
    this.env = env ?? browserEnvironment()
    this.lastInput = this.env.now()
    const input = () => this.input()
    this.offs = INPUT_EVENTS.map((e) => this.env.listen(e, input))
    this.offs.push(this.env.listen('visibilitychange', () => this.visibility()))
    this.schedule(awayAfter)
  }

  /** isIdle is what the detector last reported (false until it reports). */
  get isIdle() {
    return this.idle
  }

  /** setAwayAfter takes a new away time (a reconnection to another node). */
  setAwayAfter(ms: number) {
    if (ms === this.awayAfter) return
    this.awayAfter = ms
    this.check()
  }

  /** stop removes the listeners and the timer. */
  stop() {
    this.offs.forEach((off) => off())
    this.clear()
  }

  private input() {
    // Counted only, not timed: the timer checks the last input when it fires.
    this.lastInput = this.env.now()
    if (this.idle) this.set(false)
    if (this.timer === undefined) this.schedule(this.awayAfter)
  }

  private visibility() {
    // Shown again counts as input; hidden starts the count from now, as
    // there is no input to wait for behind it.
    this.lastInput = this.env.now()
    if (!this.env.hidden() && this.idle) this.set(false)
    this.clear()
    this.schedule(this.awayAfter)
  }

  private check() {
    this.clear()
    const quiet = this.env.now() - this.lastInput
    if (quiet >= this.awayAfter) {
      if (!this.idle) this.set(true)
      return // the next input schedules again
    }
    this.schedule(this.awayAfter - quiet)
  }

  private schedule(ms: number) {
    this.timer = this.env.setTimer(() => {
      this.timer = undefined
      this.check()
    }, ms)
  }

  private clear() {
    if (this.timer !== undefined) this.env.clearTimer(this.timer)
    this.timer = undefined
  }

  private set(idle: boolean) {
    this.idle = idle
    this.onChange(idle)
  }
}
