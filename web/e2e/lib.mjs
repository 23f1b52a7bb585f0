// The browser tests' shared helpers: the running server, API calls, sign-in,
// waits, axe and screenshots. run.mjs starts the server and Chromium and
// sets them here before any test runs.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { screenshotDir } from './harness.mjs'

export const PASSWORD = process.env.AGORA_DEMO_PASSWORD ?? 'agora-demo'
export const WIDE = { width: 1440, height: 900 }
export const NARROW = { width: 390, height: 844 }
// TIMEOUT bounds each wait for the page; run.mjs sets it per suite (a
// bound for a loaded machine, not a figure).
export let TIMEOUT = 10_000
export function setWaitBound(ms) {
  TIMEOUT = ms
}

/** server is the running `agora dev` ({url, …}); set by run.mjs. */
export const server = {}
/** shared carries accounts made by one test for a later one. */
export const shared = {}

/**
 * watchCSP collects into violations every Content-Security-Policy violation
 * of the app's pages in browser context c: the securitypolicyviolation
 * events of its documents (an init script listens before any of the page's
 * own scripts run) and Chromium's console reports of them. Frames of other
 * sites (a video player) answer to their own policies and are not counted.
 */
export async function watchCSP(c, violations) {
  await c.exposeBinding('__agoraCSPViolation', (_source, v) => {
    if (v.page.startsWith(server.url)) violations.push(v)
  })
  await c.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__agoraCSPViolation?.({
        page: location.href,
        directive: e.violatedDirective,
        blocked: e.blockedURI,
        source: `${e.sourceFile}:${e.lineNumber}`,
        sample: e.sample,
      })
    })
  })
  c.on('console', (m) => {
    const url = m.location()?.url ?? ''
    if (/Content Security Policy/i.test(m.text()) && (url === '' || url.startsWith(server.url))) violations.push({ console: m.text(), url })
  })
}

/** cspReported lets the pages' pending violation reports arrive (they are dispatched as tasks). */
export async function cspReported(pages) {
  for (const p of pages) {
    if (!p.isClosed()) await p.evaluate(() => new Promise((r) => setTimeout(r, 0))).catch(() => {})
  }
}

export async function api(method, path, { token, body } = {}) {
  const r = await fetch(server.url + path, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await r.text()
  return { status: r.status, body: text ? JSON.parse(text) : undefined }
}

export async function apiSignIn(email, password = PASSWORD) {
  const r = await api('POST', '/api/sessions', { body: { email, password } })
  assert.equal(r.status, 200, `sign in ${email}: ${JSON.stringify(r.body)}`)
  return r.body.accessToken
}

/** mailLink finds the newest link to path in the dev mailbox of to. */
export async function mailLink(to, path) {
  return (await mailWithLink(to, path)).link
}

/** mailWithLink waits for the newest mail to to with a link to path: the mail ({subject, body}) and the link. */
export async function mailWithLink(to, path) {
  for (let i = 0; i < 50; i++) {
    const r = await api('GET', `/api/dev/mailbox?to=${encodeURIComponent(to)}`)
    for (const m of r.body?.results ?? []) {
      const match = m.body.match(new RegExp(`https?://[^\\s]+(${path.replace('/', '\\/')}\\?token=[^\\s]+)`))
      if (match) return { mail: m, link: match[1] }
    }
    await new Promise((res) => setTimeout(res, 100))
  }
  throw new Error(`no ${path} mail for ${to}`)
}

export async function signIn(page, email, password = PASSWORD) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** poll calls fn until it returns something truthy, or fails after ms:
 * for what reaches a projection (search, the warehouse) through the change stream. */
export async function poll(what, fn, ms) {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 300))
  }
}

export const waitPath = (page, pathname) => page.waitForURL((u) => u.pathname === pathname, { timeout: TIMEOUT })
export const visible = (locator) => locator.first().waitFor({ state: 'visible', timeout: TIMEOUT })

export async function setTheme(page, theme) {
  await page.evaluate((t) => {
    localStorage.setItem('agora.theme', t)
    document.documentElement.classList.toggle('dark', t === 'dark')
    document.documentElement.style.colorScheme = t
  }, theme)
}

/** axe checks the page in light and dark themes: no serious or critical violation. */
export async function axe(page, screen) {
  // Colour transitions would let axe read a colour half-way between the
  // themes on a slow machine: stop them, then wait for two frames so the
  // new theme is painted before the check.
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' })
  for (const theme of ['light', 'dark']) {
    await setTheme(page, theme)
    await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))))
    const result = await new AxeBuilder({ page }).analyze()
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    assert.deepEqual(
      bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`),
      [],
      `axe on ${screen} (${theme})`,
    )
  }
  await setTheme(page, 'light')
}

export const shot = (page, name) => page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: false })

export async function signedInPage(ctx, email, viewport = WIDE, options = {}) {
  const page = await ctx.newPage(viewport, options)
  await page.goto(server.url + '/login')
  await signIn(page, email)
  await waitPath(page, '/home')
  return page
}

/** demoForum finds a demo forum by name as email sees it: their token, the
 * forum, and its page's path. */
export async function demoForum(email, name) {
  const token = await apiSignIn(email)
  const r = await api('GET', '/api/communities?page=1&pageSize=9999', { token })
  for (const c of r.body.results) {
    const f = c.series.find((s) => s.name === name)
    if (!f) continue
    const series = (await api('GET', `/api/series/${f.id}`, { token })).body
    return { token, series, communityId: c.id, path: `/communities/${c.id}/series/${f.id}` }
  }
  throw new Error(`no demo forum ${name} for ${email}`)
}

/**
 * openFeed signs in and opens the forum at path, and waits for the hub's
 * WebSocket to open, so that the events of what others do next reach this
 * page.
 */
export async function openFeed(ctx, email, path, viewport) {
  const page = await signedInPage(ctx, email, viewport)
  const hub = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/api/hub'), timeout: TIMEOUT })
  // Awaited below; a failure before that must not also reject unheard.
  hub.catch(() => {})
  await page.goto(server.url + path)
  await visible(page.getByTestId('forum-feed'))
  await hub
  // The hub registers the connection after the upgrade.
  await page.waitForTimeout(500)
  return page
}

/** postCard is the feed's first post card holding text. */
export const postCard = (page, text) => page.getByTestId('post-card').filter({ hasText: text }).first()

/** askAI asks a channel's AI search through the API, as token, and returns its NDJSON events. */
export async function askAI(token, channelId, q) {
  const r = await fetch(`${server.url}/api/ai/search/${channelId}?q=${encodeURIComponent(q)}`, { headers: { Authorization: `Bearer ${token}` } })
  if (r.status !== 200) throw new Error(`AI search: ${r.status}`)
  return (await r.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
}

/**
 * layoutProblems reads the page as a member sees it and lists what is
 * hidden or out of place: text whose glyphs another element paints over
 * (sampled at the left, middle and right of each line's box, so that "BO"
 * half under the next avatar is caught), text cut off by a clipping
 * ancestor without an ellipsis, and content wider than the viewport.
 * Text under an open dialog's overlay or beside an open menu, or
 * scrolled out of a scroll container, is not the member's to read and is
 * skipped.
 */
export async function layoutProblems(page) {
  return page.evaluate(() => {
    const out = []
    const vw = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth > vw + 1) out.push(`the page is wider than the viewport: ${document.documentElement.scrollWidth} > ${vw}`)
    const label = (el) => {
      const id = el.getAttribute('data-testid')
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
      return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''} "${text}"`
    }
    const shown = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const s = getComputedStyle(e)
        if (s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) === 0) return false
        if (e.classList.contains('sr-only')) return false
      }
      return true
    }
    const modal = [...document.querySelectorAll('[role=dialog], [role=alertdialog], [role=menu]')].find((d) => d.getBoundingClientRect().width > 0)
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    const seen = new Set()
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement
      if (!el || !n.textContent.trim() || seen.has(el)) continue
      if (el.closest('script, style, noscript, svg')) continue
      if (modal && !modal.contains(el)) continue
      if (!shown(el)) continue
      const range = document.createRange()
      range.selectNodeContents(n)
      for (const r of range.getClientRects()) {
        if (r.width < 2 || r.height < 2) continue
        // Outside the viewport, or scrolled out of a scroll container: not shown now.
        if (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= vw) continue
        // What of the line shows: its box within every clipping ancestor
        // (the element's own, for an ellipsis). The viewport is checked
        // apart, so the root elements do not count.
        let box = { left: r.left, right: r.right, top: r.top, bottom: r.bottom }
        let clipped = null
        let scrolledOut = false
        for (let a = el; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
          const s = getComputedStyle(a)
          if (!/(hidden|clip|auto|scroll)/.test(s.overflowX + s.overflowY)) continue
          const b = a.getBoundingClientRect()
          const outside = box.left < b.left - 1 || box.right > b.right + 1 || box.top < b.top - 1 || box.bottom > b.bottom + 1
          if (!outside) continue
          if (/(auto|scroll)/.test(s.overflowX + s.overflowY)) {
            // Out of a scroll container's side while it scrolls down: a
            // card wider than the panel it is in, which a member reads cut
            // off (the panel scrolls sideways only by accident).
            const sideways = (box.left < b.left - 1 || box.right > b.right + 1) && box.top >= b.top - 1 && box.bottom <= b.bottom + 1
            if (sideways && a.scrollWidth > a.clientWidth + 1 && /(auto|scroll)/.test(s.overflowY) && s.overflowX === s.overflowY) {
              if (!clipped) clipped = a
              box = { left: Math.max(box.left, b.left), right: Math.min(box.right, b.right), top: box.top, bottom: box.bottom }
              continue
            }
            scrolledOut = true
            break
          }
          // An ellipsis or a line clamp shortens the text on purpose, and says so.
          const shortened = s.textOverflow === 'ellipsis' || (s.webkitLineClamp && s.webkitLineClamp !== 'none')
          if (!shortened && !clipped) clipped = a
          box = { left: Math.max(box.left, b.left), right: Math.min(box.right, b.right), top: Math.max(box.top, b.top), bottom: Math.min(box.bottom, b.bottom) }
        }
        if (scrolledOut || box.right - box.left < 2 || box.bottom - box.top < 2) continue
        if (clipped) {
          out.push(`cut off: ${label(el)} by ${label(clipped)}`)
          seen.add(el)
          break
        }
        const y = (box.top + box.bottom) / 2
        const w = box.right - box.left
        const xs = [box.left + Math.min(2, w / 4), box.left + w / 2, box.right - Math.min(2, w / 4)]
        const over = xs.map((x) => document.elementFromPoint(x, y)).find((hit) => hit && hit !== el && !el.contains(hit) && !hit.contains(el))
        if (over && !(r.bottom > innerHeight - 1 || r.right > vw - 1)) {
          out.push(`covered: ${label(el)} under ${label(over)}`)
          seen.add(el)
          break
        }
      }
    }
    return out
  })
}
