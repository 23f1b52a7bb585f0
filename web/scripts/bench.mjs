// bench: the web app's figures, against a real `agora dev` on localhost
// (the built bin/agora, a temporary data folder) and the system Chromium.
//
//   - the JavaScript the sign-in route loads, gzipped (target: ≤ 200 KB);
//   - the home page's time to interactive: from navigation start until the
//     member's communities are on screen and the main thread has had no long
//     task (> 50 ms) for a second; the later of the two. Cold cache (a new
//     browser context per run), median of 5 runs;
//   - a forum's first load in a fresh browser (a new context, so nothing
//     cached): from navigation start until a skeleton shows, and until the
//     first post is on screen (target: p95 <= 1 s), over 20 runs.
import { gzipSync } from 'node:zlib'
import { launchChromium, startAgora } from '../e2e/harness.mjs'

const RUNS = 5
const server = await startAgora()
const chromium = await launchChromium()
const kb = (n) => (n / 1024).toFixed(1)

try {
  // --- sign-in route JavaScript ---------------------------------------------
  const ctx = await chromium.browser.newContext()
  const page = await ctx.newPage()
  const scripts = new Map()
  page.on('response', async (r) => {
    if (r.request().resourceType() === 'script' || r.url().endsWith('.js')) {
      scripts.set(r.url(), r.body().catch(() => Buffer.alloc(0)))
    }
  })
  await page.goto(server.url + '/login', { waitUntil: 'networkidle' })
  await page.getByRole('button', { name: 'Sign in' }).waitFor()
  let raw = 0
  let gz = 0
  for (const body of scripts.values()) {
    const b = await body
    raw += b.length
    gz += gzipSync(b, { level: 9 }).length
  }
  await ctx.close()
  const verdict = gz <= 200 * 1024 ? 'ok' : 'OVER TARGET'
  console.log(`web: sign-in route JavaScript: ${scripts.size} files, ${kb(gz)} KB gzipped (${kb(raw)} KB raw); target <= 200 KB: ${verdict}`)

  // --- home page time to interactive ------------------------------------------
  const signIn = await fetch(server.url + '/api/sessions', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'member@demo.agora', password: process.env.AGORA_DEMO_PASSWORD ?? 'agora-demo' }),
  }).then((r) => r.json())
  const times = []
  for (let i = 0; i < RUNS; i++) {
    const c = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } })
    await c.addInitScript((token) => {
      localStorage.setItem('user_token', token)
      const w = window
      w.__bench = { longTaskEnd: 0, contentAt: 0 }
      try {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__bench.longTaskEnd = Math.max(w.__bench.longTaskEnd, e.startTime + e.duration)
        }).observe({ type: 'longtask', buffered: true })
      } catch {
        /* no long task API: content time only */
      }
      new MutationObserver((_, obs) => {
        if (document.querySelector('[data-testid=community-card]')) {
          w.__bench.contentAt = performance.now()
          obs.disconnect()
        }
      }).observe(document, { childList: true, subtree: true })
    }, signIn.accessToken)
    const p = await c.newPage()
    await p.goto(server.url + '/home')
    await p.locator('[data-testid=community-card]').first().waitFor({ timeout: 15_000 })
    await p.waitForTimeout(1000) // the quiet second
    const b = await p.evaluate(() => window.__bench)
    times.push(Math.max(b.contentAt, b.longTaskEnd))
    await c.close()
  }
  times.sort((a, b) => a - b)
  const median = times[Math.floor(times.length / 2)]
  console.log(
    `web: home page time to interactive (localhost, cold cache, median of ${RUNS}): ${median.toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[times.length - 1].toFixed(0)})`,
  )

  // --- a forum's first load ----------------------------------------------------
  const token = signIn.accessToken
  const communities = await fetch(server.url + '/api/communities', { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.json())
  const c = communities.results.find((x) => x.series.some((f) => f.name === 'Roadmaps & Prioritization'))
  const forumPath = `/communities/${c.id}/series/${c.series.find((f) => f.name === 'Roadmaps & Prioritization').id}`
  const FORUM_RUNS = 20
  const skeleton = []
  const firstPost = []
  for (let i = 0; i < FORUM_RUNS; i++) {
    const ctx = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } })
    await ctx.addInitScript((token) => {
      localStorage.setItem('user_token', token)
      const w = window
      w.__forum = { skeletonAt: 0, postAt: 0 }
      new MutationObserver((_, obs) => {
        if (!w.__forum.skeletonAt && document.querySelector('[aria-busy=true]')) w.__forum.skeletonAt = performance.now()
        if (document.querySelector('[data-testid=post-card]')) {
          w.__forum.postAt = performance.now()
          w.__forum.skeletonAt ||= w.__forum.postAt
          obs.disconnect()
        }
      }).observe(document, { childList: true, subtree: true })
    }, token)
    const p = await ctx.newPage()
    await p.goto(server.url + forumPath)
    await p.locator('[data-testid=post-card]').first().waitFor({ timeout: 15_000 })
    const f = await p.evaluate(() => window.__forum)
    skeleton.push(f.skeletonAt)
    firstPost.push(f.postAt)
    await ctx.close()
  }
  const pct = (xs, q) => {
    const s = [...xs].sort((a, b) => a - b)
    return s[Math.min(s.length - 1, Math.ceil((q / 100) * s.length) - 1)]
  }
  const range = (xs) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`
  const p95 = pct(firstPost, 95)
  console.log(
    `web: a forum's first load in a fresh browser (localhost, ${FORUM_RUNS} runs): skeleton p50 ${pct(skeleton, 50).toFixed(0)} ms, p95 ${pct(skeleton, 95).toFixed(0)} ms (${range(skeleton)}); ` +
      `first post p50 ${pct(firstPost, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (${range(firstPost)}); target p95 <= 1000 ms: ${p95 <= 1000 ? 'met' : 'MISSED'}`,
  )
} finally {
  await chromium.close()
  await server.stop()
}
