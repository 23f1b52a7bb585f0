// What the app promises: an anonymous question keeps the composer's promise.
import assert from 'node:assert/strict'
import { TIMEOUT, api, apiSignIn, server, signedInPage, visible } from '../lib.mjs'

const MEMBER = 'member@demo.agora'
const ADMIN = 'admin@demo.agora'
const FORUM = 'Welcome & Introductions'

/** forum finds the member's demo forum through the API. */
async function forum() {
  const token = await apiSignIn(MEMBER)
  const mine = await api('GET', '/api/communities?page=1&pageSize=9999', { token })
  for (const c of mine.body.results) {
    const s = c.series.find((f) => f.name === FORUM)
    if (!s) continue
    const f = await api('GET', `/api/series/${s.id}`, { token })
    assert.equal(f.status, 200)
    return { token, series: f.body, path: `/communities/${c.id}/series/${s.id}` }
  }
  throw new Error(`${MEMBER} is not in ${FORUM}`)
}

export default [
  {
    name: 'chrome: an anonymous question — the composer tells who may see the asker, the asker sees no New marker, an admin is told the look is recorded',
    async fn(ctx) {
      const { token, series, path } = await forum()
      // A previous visit, so that newer posts are marked New.
      assert.equal((await api('POST', `/api/series/${series.id}/visits`, { token })).status, 200)
      const page = await signedInPage(ctx, MEMBER)
      await page.goto(server.url + path)
      await visible(page.getByTestId('forum-feed'))
      await page.getByRole('group', { name: 'Create' }).getByRole('button', { name: 'Ask a question' }).click()
      const dialog = page.getByRole('dialog', { name: 'Ask a question' })
      await visible(dialog)
      await dialog.getByRole('radio', { name: 'Anonymous' }).check()
      await visible(dialog.getByText('Your name is hidden from members. Forum admins may see who asked, for moderation, and each look is recorded.'))
      assert.equal(await dialog.getByText(/admins included/i).count(), 0)
      const question = `Anonymous question of mine ${Date.now()}?`
      await dialog.getByRole('textbox', { name: 'Question text' }).fill(question)
      await dialog.getByRole('button', { name: 'Ask', exact: true }).click()
      await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })
      const mine = page.getByTestId('post-card').filter({ hasText: question }).first()
      await visible(mine)
      assert.equal(await mine.getByTestId('post-author').innerText(), 'Anonymous')
      assert.equal(await mine.getByTestId('new-badge').count(), 0, 'the asker sees their own question as New')
      // Read again from the server (after this visit), still not New.
      assert.equal((await api('POST', `/api/series/${series.id}/visits`, { token })).status, 200)
      await page.reload()
      await visible(mine)
      assert.equal(await mine.getByTestId('new-badge').count(), 0, 'the asker sees their own question as New after a reload')

      // A forum admin is told, before looking, that the look is recorded.
      const admin = await signedInPage(ctx, ADMIN)
      await admin.goto(server.url + path)
      const theirs = admin.getByTestId('post-card').filter({ hasText: question }).first()
      await visible(theirs)
      const look = theirs.getByRole('button', { name: 'See who asked' })
      await visible(theirs.getByText('Your look is recorded.', { exact: false }))
      const noteId = await look.getAttribute('aria-describedby')
      assert.ok(noteId, 'the button is described by the note')
      assert.match(await admin.locator(`[id="${noteId}"]`).innerText(), /Your look is recorded/)
      await look.click()
      await visible(theirs.getByTestId('asker'))
      await visible(theirs.getByText('Your look was recorded.', { exact: false }))
    },
  },
]
