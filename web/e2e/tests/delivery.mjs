// Notification delivery in the browser: the profile's notification settings
// are kept in the member's personalization, and the push service worker
// (public/sw.js) registers under the app's policy and shows what is pushed.
import assert from 'node:assert/strict'
import { api, apiSignIn, poll, server, signedInPage, TIMEOUT, visible } from '../lib.mjs'

const EXPERT = 'expert@demo.agora'
const KEYS = ['notifications.push.comments', 'notifications.digest.frequency', 'notifications.digest.weekday']

export default [
  {
    name: 'delivery: the profile’s notification settings are kept across a reload',
    async fn(ctx) {
      const token = await apiSignIn(EXPERT)
      const me = (await api('GET', '/api/tokens/decode', { token })).body.user
      const reset = () => api('PATCH', `/api/users/${me.id}/personalization`, { token, body: Object.fromEntries(KEYS.map((k) => [k, null])) })
      assert.equal((await reset()).status, 200)
      try {
        const page = await signedInPage(ctx, EXPERT)
        await page.goto(server.url + '/profile')
        const section = page.getByTestId('notification-settings')
        await visible(section.getByRole('heading', { name: 'Notifications' }))
        const comments = section.getByRole('switch', { name: 'Notify this browser about comments and replies' })
        await visible(comments)
        assert.equal(await comments.getAttribute('aria-checked'), 'true')
        await comments.click()
        await page.waitForFunction(() => document.querySelector('[aria-label="Notify this browser about comments and replies"]')?.getAttribute('aria-checked') === 'false')
        const digest = section.getByRole('combobox', { name: 'Digest of comments, replies and mentions' })
        await digest.selectOption('weekly')
        await visible(section.getByRole('combobox', { name: 'On', exact: true }))
        await section.getByRole('combobox', { name: 'On', exact: true }).selectOption('5')
        await page.waitForFunction(() => !document.querySelector('[aria-label="On"]')?.disabled)

        await page.reload()
        await visible(section.getByRole('combobox', { name: 'On', exact: true }))
        assert.equal(await section.getByRole('combobox', { name: 'On', exact: true }).inputValue(), '5')
        assert.equal(await digest.inputValue(), 'weekly')
        assert.equal(await comments.getAttribute('aria-checked'), 'false')
        const stored = (await api('GET', `/api/users/${me.id}/personalization`, { token })).body
        assert.deepEqual(
          KEYS.map((k) => stored[k]),
          [false, 'weekly', 5],
        )
      } finally {
        await reset()
      }
    },
  },
  {
    name: 'delivery: the service worker registers under the app’s policy and shows a pushed notification, on this site only',
    async fn(ctx) {
      const page = await signedInPage(ctx, EXPERT)
      await page.context().grantPermissions(['notifications'], { origin: server.url })
      await page.goto(server.url + '/profile')
      const cdp = await page.context().newCDPSession(page)
      const registered = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('DevTools never reported the registration')), 3 * TIMEOUT)
        cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const r = registrations.find((x) => x.scopeURL === server.url + '/' && !x.isDeleted)
          if (r) {
            clearTimeout(timer)
            resolve(r.registrationId)
          }
        })
      })
      await cdp.send('ServiceWorker.enable')
      const scope = await page.evaluate(async () => {
        const r = await navigator.serviceWorker.register('/sw.js', { scope: '/' })
        await navigator.serviceWorker.ready
        return r.scope
      })
      assert.equal(scope, server.url + '/')
      const registrationId = await registered
      const shown = () =>
        page.evaluate(async () => {
          const r = await navigator.serviceWorker.getRegistration('/')
          return ((await r?.getNotifications()) ?? []).map((x) => ({ title: x.title, body: x.body, url: x.data?.url, tag: x.tag }))
        })
      // Chromium starts the worker for each push and, on a loaded machine,
      // sometimes drops a push DevTools hands it while doing so; a push
      // service delivers at least once, so the push is sent again until it
      // shows, and its tag keeps that to one notification on the screen.
      const deliver = async (message, count) => {
        const deadline = Date.now() + 3 * TIMEOUT
        for (;;) {
          await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId, data: JSON.stringify(message) })
          const until = Math.min(deadline, Date.now() + 5000)
          while (Date.now() < until) {
            if ((await shown()).length >= count) return
            await new Promise((r) => setTimeout(r, 300))
          }
          if (Date.now() >= deadline) throw new Error(`timed out waiting for the pushed notification "${message.title}"`)
        }
      }
      await deliver({ title: 'Ada mentioned you', body: 'Hello there', url: '/home?from=push', tag: 'comment-1' }, 1)
      // The same push once more replaces the notification: still one.
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: server.url,
        registrationId,
        data: JSON.stringify({ title: 'Ada mentioned you', body: 'Hello there', url: '/home?from=push', tag: 'comment-1' }),
      })
      // A url of another site is not followed: the worker keeps to the app.
      await deliver({ title: 'Elsewhere', body: '', url: 'https://evil.example/x', tag: 'comment-2' }, 2)
      const all = await shown()
      assert.deepEqual(
        all.sort((a, b) => a.tag.localeCompare(b.tag)),
        [
          { title: 'Ada mentioned you', body: 'Hello there', url: '/home?from=push', tag: 'comment-1' },
          { title: 'Elsewhere', body: '', url: '/home', tag: 'comment-2' },
        ],
      )
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.unregister())
    },
  },
]
