// The browser tests: flows a person does, against a real `agora dev`.
// Run with `npm --prefix web run e2e` after `make build` (make test does both).
// Each file under tests/ exports its tests, run in the order listed here.
import { launchChromium, run, startAgora } from './harness.mjs'
import { cspReported, server, setWaitBound, TIMEOUT, watchCSP, WIDE } from './lib.mjs'
import auth from './tests/auth.mjs'
import composer from './tests/composer.mjs'
import forum from './tests/forum.mjs'
import feed from './tests/feed.mjs'
import search from './tests/search.mjs'
import insights from './tests/insights.mjs'
import gaps from './tests/gaps.mjs'
import chrome from './tests/chrome.mjs'
import sso from './tests/sso.mjs'
import communities from './tests/communities.mjs'
import accounts from './tests/accounts.mjs'
import people from './tests/people.mjs'
import chat from './tests/chat.mjs'
import delivery from './tests/delivery.mjs'
import notifications from './tests/notifications.mjs'
import meetups from './tests/meetups.mjs'
import subscriptions from './tests/subscriptions.mjs'
import engines from './tests/engines.mjs'
import layout from './tests/layout.mjs'

// Each suite runs against an agora dev of its own: the product's quick
// default (the embedded relay and broker), then the real engines (Debezium's
// connector on Kafka Connect, and Kafka), whose three JVMs take a minute or
// two to start on a loaded 2-core machine.
const suites = [
  { tests: [...auth, ...composer, ...forum, ...feed, ...search, ...insights, ...gaps, ...communities, ...accounts, ...people, ...chat, ...delivery, ...notifications, ...chrome, ...sso, ...meetups, ...subscriptions, ...layout] },
  { tests: engines, options: { args: ['--engines', 'real'], readyWithin: 8 * 60_000 }, waitBound: 30_000 },
]
const only = process.env.E2E_ONLY

const chromium = await launchChromium()
let ok = true
try {
  for (const suite of suites) {
    if (only && !suite.tests.some((t) => t.name.includes(only))) continue
    for (const k of Object.keys(server)) delete server[k]
    Object.assign(server, await startAgora(suite.options))
    setWaitBound(suite.waitBound ?? 10_000)
    try {
      ok = (await runSuite(suite.tests)) && ok
    } finally {
      await server.stop()
    }
  }
} finally {
  await chromium.close()
}
process.exit(ok ? 0 : 1)

/** runSuite runs tests against the server, each in fresh contexts of the shared Chromium. */
function runSuite(tests) {
  return run(tests, async () => {
    const contexts = []
    const browsers = []
    const pages = []
    const violations = []
    const ctx = {
      page: undefined,
      // newPage opens a page in a fresh context of the shared Chromium, or of
      // options.browser (one from launch).
      async newPage(viewport = WIDE, { browser = chromium.browser, ...options } = {}) {
        const c = await browser.newContext({ viewport, reducedMotion: 'reduce', ...options })
        contexts.push(c)
        await watchCSP(c, violations)
        const page = await c.newPage()
        page.setDefaultTimeout(TIMEOUT)
        const errors = []
        page.on('pageerror', (e) => errors.push(e))
        pages.push(page)
        ctx.page = page
        return page
      },
      // launch starts another Chromium with extra arguments, closed with the test.
      async launch(extraArgs) {
        const b = await launchChromium(extraArgs)
        browsers.push(b)
        return b.browser
      },
      // after fails the test when one of its pages broke the Content-Security-Policy.
      async after() {
        await cspReported(pages)
        if (violations.length) throw new Error(`Content-Security-Policy violations:\n${violations.map((v) => JSON.stringify(v)).join('\n')}`)
      },
      async close() {
        for (const c of contexts) await c.close().catch(() => {})
        for (const b of browsers) await b.close().catch(() => {})
      },
    }
    return ctx
  })
}
