// crowd-browsers: the real browsers of the crowd benchmark (cmd/bench,
// crowd_browsers.go), which starts this script beside its simulated members
// and reads what it prints.
//
// It reads one JSON line on stdin: {url, password, emails, pauseMs,
// timeoutMs}. For each email it launches its own Chromium (the system one,
// as the browser tests do), signs in the way a person does (the sign-in
// page, typing the email and the password), and then, until stdin ends,
// opens the home page again and again: a fresh navigation in the same
// browser, whose HTTP cache holds the app's files as a returning member's
// does, and a pause of pauseMs after each load, as a person reads the page.
//
// A load is timed in the page, from its navigation start (the document's
// time origin) until it is interactive as a person checks it: the member's
// community card is drawn, and a click on the page's "Visited" filter tab
// has taken effect (the tab drawn selected: the click went through the
// router and back into the page). The click is sent as real input as soon
// as the driver sees the card, so the driver's own delay counts against the
// page, never for it.
//
// It prints one JSON line per event on stdout:
//
//	{"browser": i, "ready": true, "version": "…", "signInMs": n}
//	{"browser": i, "loading": epochMs}  (a load starts)
//	{"browser": i, "start": epochMs, "contentMs": n, "inputMs": n, "interactiveMs": n}
//	{"browser": i, "start": epochMs, "error": "…"}
//	{"fatal": "…"}  (then exits 1)
//
// contentMs is the card drawn, interactiveMs the click's effect drawn, both
// from navigation start; inputMs is from the click's arrival in the page
// (its pointerdown) to its effect.
import { createInterface } from 'node:readline'
import { launchChromium } from '../e2e/harness.mjs'

const emit = (o) => process.stdout.write(JSON.stringify(o) + '\n')

// probe runs in every document before the app's scripts: it notes, in
// page time, the frame in which the community card first appears, the
// click on the "Visited" tab, and the frame in which that tab turns
// selected.
function probe() {
  const m = { content: 0, click: 0, effect: 0 }
  window.__crowd = m
  const visitedTab = () => [...document.querySelectorAll('[role=tab]')].find((t) => t.textContent.trim() === 'Visited')
  // A change is on screen in the next frame: its requestAnimationFrame
  // callback runs just before that frame is drawn.
  const drawn = (set) => requestAnimationFrame(() => set(performance.now()))
  new MutationObserver((_, observer) => {
    if (!m.content && document.querySelector('[data-testid=community-card]')) {
      m.content = -1
      drawn((t) => (m.content = t))
    }
    if (m.click && !m.effect && visitedTab()?.getAttribute('aria-selected') === 'true') {
      m.effect = -1
      drawn((t) => (m.effect = t))
      observer.disconnect()
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-selected'] })
  // The tab selects on pointer down (Radix Tabs); a trusted event's
  // timeStamp is when the input arrived, before it waited for the page.
  document.addEventListener(
    'pointerdown',
    (e) => {
      if (e.isTrusted && !m.click && visitedTab()?.contains(e.target)) m.click = e.timeStamp
    },
    true,
  )
}

async function signIn(page, url, email, password) {
  await page.goto(url + '/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((u) => u.pathname === '/home')
}

// load opens the home page once and returns its times. The tab is found in
// the page, in the frame the card appears (waitForFunction polls on
// animation frames), and clicked there at once with raw mouse input: a
// locator's click would first wait for the tab to hold still over two more
// frames, time that is the driver's, not the page's.
async function load(page, url) {
  await page.goto(url + '/home', { waitUntil: 'commit' })
  const ready = await page.waitForFunction(() => {
    if (document.querySelector('[data-testid=error-fallback]')) return { error: 'the home page says its communities failed to load' }
    if (!document.querySelector('[data-testid=community-card]')) return false
    const tab = [...document.querySelectorAll('[role=tab]')].find((t) => t.textContent.trim() === 'Visited')
    const r = tab?.getBoundingClientRect()
    return r && r.width > 0 ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : false
  })
  const at = await ready.jsonValue()
  if (at.error) throw new Error(at.error)
  await page.mouse.click(at.x, at.y)
  await page.waitForFunction(() => window.__crowd.effect > 0 && window.__crowd.content > 0)
  const m = await page.evaluate(() => window.__crowd)
  return { contentMs: m.content, inputMs: m.effect - m.click, interactiveMs: m.effect }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function main() {
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
  const first = await lines.next()
  if (first.done) throw new Error('no configuration on stdin')
  const { url, password, emails, pauseMs, timeoutMs } = JSON.parse(first.value)
  // The bench ends the run by closing stdin.
  let stopping = false
  const stopped = (async () => {
    while (!(await lines.next()).done);
    stopping = true
  })()

  const browsers = []
  const drive = async (i, email) => {
    const chromium = await launchChromium()
    browsers.push(chromium)
    const context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } })
    await context.addInitScript(probe)
    const page = await context.newPage()
    page.setDefaultTimeout(timeoutMs)
    const t0 = Date.now()
    await signIn(page, url, email, password)
    emit({ browser: i, ready: true, version: chromium.browser.version(), signInMs: Date.now() - t0 })
    while (!stopping) {
      const start = Date.now()
      emit({ browser: i, loading: start })
      try {
        emit({ browser: i, start, ...(await load(page, url)) })
      } catch (e) {
        if (stopping) break
        emit({ browser: i, start, error: String(e?.message ?? e).split('\n')[0] })
      }
      await Promise.race([sleep(pauseMs), stopped])
    }
  }
  try {
    await Promise.all(emails.map((email, i) => drive(i, email)))
  } finally {
    await Promise.all(browsers.map((b) => b.close().catch(() => {})))
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    emit({ fatal: String(e?.message ?? e) })
    process.exit(1)
  },
)
