// What the app's frame shows and promises: the notifications bell, and no
// entry that leads to an empty shell (Meet Ups are not built yet), the
// Terms of Service and Privacy Policy are real pages, the profile speaks a
// member's words, and an anonymous question keeps the composer's promise.
import assert from 'node:assert/strict'
import { NARROW, TIMEOUT, api, apiSignIn, axe, server, signIn, signedInPage, visible, waitPath } from '../lib.mjs'

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

/**
 * noShells checks that the page has the notifications bell and the upcoming
 * Meet Ups button (on a phone, the top bar menu's entry), no meetups tab
 * while no Meet Up is on, and none of the entries whose features are not
 * built.
 */
async function noShells(page, where) {
  assert.equal(await page.getByRole('banner').getByRole('button', { name: 'Notifications', exact: true }).count(), 1, `${where}: the notifications bell`)
  if (page.viewportSize().width < 768) {
    await page.getByRole('banner').getByRole('button', { name: 'Menu', exact: true }).click()
    await visible(page.getByRole('menuitem', { name: 'Upcoming Meet Ups' }))
    await page.keyboard.press('Escape')
    await page.getByRole('menu').waitFor({ state: 'detached', timeout: TIMEOUT })
  } else assert.equal(await page.getByRole('banner').getByRole('button', { name: 'Upcoming Meet Ups', exact: true }).count(), 1, `${where}: the upcoming Meet Ups button`)
  for (const name of ['Member network', 'Meet Ups', 'Meet Up']) {
    assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, `${where}: a "${name}" button`)
    assert.equal(await page.getByRole('tab', { name, exact: true }).count(), 0, `${where}: a "${name}" tab`)
  }
  assert.equal(await page.getByText(/coming soon|arrives with|No upcoming Meet Ups|shows here/i).count(), 0, `${where}: a placeholder`)
}

export default [
  {
    name: 'chrome: the bell and the upcoming Meet Ups, no meetups tab, wide and narrow; chat and team tabs for every forum member',
    async fn(ctx) {
      const { path } = await forum()
      const page = await signedInPage(ctx, MEMBER)
      await visible(page.getByRole('heading', { name: 'Home' }))
      await noShells(page, 'home')
      await page.goto(server.url + path)
      await visible(page.getByTestId('forum-feed'))
      await noShells(page, 'forum')
      // A member of the forum has the panel with the chat and Team: Insights is for admins, Meet Ups unbuilt.
      await page.getByTestId('right-panel').getByRole('button', { name: 'Team', exact: true }).click()
      assert.deepEqual(await page.getByTestId('right-panel').getByRole('tab').allInnerTexts(), ['Chat', 'Team'])

      const narrow = await signedInPage(ctx, MEMBER, NARROW)
      await narrow.goto(server.url + path)
      await visible(narrow.getByTestId('forum-feed'))
      await noShells(narrow, 'forum (narrow)')
      await narrow.getByRole('button', { name: 'Forum panels' }).click()
      assert.deepEqual(await narrow.getByRole('menuitem').allInnerTexts(), ['Team'], 'forum (narrow): the panel menu')
      await narrow.keyboard.press('Escape')

      // A forum admin's panel holds the chat, Insights and Team.
      const admin = await signedInPage(ctx, ADMIN)
      await admin.goto(server.url + path)
      await visible(admin.getByTestId('forum-feed'))
      const panel = admin.getByTestId('right-panel')
      await visible(panel.getByRole('button', { name: 'Insights' }))
      await noShells(admin, 'forum (admin)')
      await panel.getByRole('button', { name: 'Insights' }).click()
      await visible(admin.getByTestId('insights-panel'))
      assert.deepEqual(await panel.getByRole('tab').allInnerTexts(), ['Chat', 'Insights', 'Team'])
      await noShells(admin, 'forum (admin, panel expanded)')
      await axe(admin, 'forum with the panel expanded (admin)')
    },
  },
  {
    name: 'chrome: Terms of Service and Privacy Policy are pages with text, signed out and in',
    async fn(ctx) {
      const page = await ctx.newPage()
      await page.goto(server.url + '/login')
      await page.getByRole('link', { name: 'Terms of Service' }).click()
      await waitPath(page, '/terms')
      await visible(page.getByRole('heading', { name: 'Terms of Service', level: 1 }))
      await visible(page.getByText('is run by the organization that operates this server', { exact: false }))
      await axe(page, 'terms')
      await page.goBack()
      await waitPath(page, '/login')
      await page.getByRole('link', { name: 'Privacy Policy' }).click()
      await waitPath(page, '/privacy')
      await visible(page.getByRole('heading', { name: 'Privacy Policy', level: 1 }))
      const text = await page.getByRole('main').innerText()
      for (const words of [/e-mail address/i, /posts/i, /uploaded files/i, /local storage/i, /no tracking/i, /password reset/i]) {
        assert.match(text, words, 'the privacy policy says what is stored')
      }
      await axe(page, 'privacy')
      // Signed in, the pages still open (no redirect to home).
      await page.goto(server.url + '/login')
      await signIn(page, MEMBER)
      await waitPath(page, '/home')
      await page.goto(server.url + '/privacy')
      await visible(page.getByRole('heading', { name: 'Privacy Policy', level: 1 }))
      assert.equal(new URL(page.url()).pathname, '/privacy')
    },
  },
  {
    name: 'chrome: the profile shows no internal role word',
    async fn(ctx) {
      for (const [email, role] of [
        [MEMBER, null],
        ['super@demo.agora', 'Super user'],
      ]) {
        const page = await signedInPage(ctx, email)
        await page.goto(server.url + '/profile')
        await visible(page.getByText(email))
        const text = await page.getByRole('main').innerText()
        assert.doesNotMatch(text, /Role\s*:?\s*(user|super|admin|guest|member|moderator)\b/, `${email}: an internal role`)
        assert.doesNotMatch(text, /^(user|super)$/m, `${email}: an internal role word`)
        if (role) await visible(page.getByText(role, { exact: true }))
        else assert.equal(await page.getByText('Role', { exact: true }).count(), 0, `${email}: a role row`)
        await page.close()
      }
    },
  },
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
      // It asks once more, as the look cannot be taken back.
      const confirm = admin.getByRole('dialog', { name: 'See who asked this question?' })
      await visible(confirm)
      await confirm.getByRole('button', { name: 'See who asked' }).click()
      await visible(theirs.getByTestId('asker'))
      await visible(theirs.getByText('Your look was recorded.', { exact: false }))
    },
  },
]
