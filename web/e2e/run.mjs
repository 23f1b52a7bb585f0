// The browser tests: flows a person does, against a real `agora dev`.
// Run with `npm --prefix web run e2e` after `make build` (make test does both).
// Each file under tests/ exports its tests, run in the order listed here.
import { launchChromium, run, startAgora } from './harness.mjs'
import { cspReported, server, TIMEOUT, watchCSP, WIDE } from './lib.mjs'
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

const tests = [...auth, ...composer, ...forum, ...feed, ...search, ...insights, ...gaps, ...communities, ...accounts, ...people, ...chat, ...delivery, ...notifications, ...chrome, ...sso, ...meetups, ...subscriptions]

Object.assign(server, await startAgora())
const chromium = await launchChromium()

let ok = false
try {
  ok = await run(tests, async () => {
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
} finally {
  await chromium.close()
  await server.stop()
}
process.exit(ok ? 0 : 1)
