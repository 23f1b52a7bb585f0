// The forum page and access management (spec 001 §2, §4, §5, §6, §8).
import assert from 'node:assert/strict'
import { NARROW, TIMEOUT, api, apiSignIn, axe, openFeed, poll, server, shot, signedInPage, visible, waitPath } from '../lib.mjs'

// The demo forums used here: an open forum with an expert, which the demo
// member is in, and the invite-only one the member is not in, whose access
// these tests change (people they add themselves, so other tests' people
// keep their roles).
const OPEN = 'Roadmaps & Prioritization'
const CLOSED = 'Leadership Roundtable'
// The demo member's other forum, beside OPEN.
const WELCOME = 'Welcome & Introductions'

// A 2×2 PNG: a real picture, which the upload checks by its bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64')

/** forumPath finds a demo forum by name, as the admin sees it. */
async function forumPath(name) {
  const token = await apiSignIn('admin@demo.agora')
  const r = await api('GET', '/api/communities', { token })
  for (const c of r.body.results) {
    const f = c.series.find((s) => s.name === name)
    if (f) return { path: `/communities/${c.id}/series/${f.id}`, seriesId: f.id, communityId: c.id, token }
  }
  throw new Error(`no demo forum ${name}`)
}

async function openForum(page, path, name) {
  await page.goto(server.url + path)
  await visible(page.getByRole('heading', { level: 1, name }))
}

/** manageAccess opens the Manage Access choice and picks an option. */
async function manageAccess(page, option) {
  await page.getByRole('button', { name: 'Manage Access' }).click()
  const dialog = page.getByRole('dialog')
  await visible(dialog.getByRole('heading', { name: 'Manage Access' }))
  if (option) await dialog.getByRole('button', { name: option }).click()
  return dialog
}

/** findExisting searches the existing-members list (the box shows past ten members) for an email. */
async function findExisting(dialog, email) {
  // The list is read first; the box shows once the number of members is known.
  await visible(dialog.getByTestId('existing-row'))
  const search = dialog.getByRole('searchbox', { name: 'Search by name or email' })
  if (await search.isVisible().catch(() => false)) {
    await search.fill(email)
    // The search narrows the list to her (after its 250 ms debounce).
    await dialog.getByTestId('existing-row').filter({ hasNotText: email }).first().waitFor({ state: 'detached', timeout: TIMEOUT })
  }
  const row = dialog.getByTestId('existing-row').filter({ hasText: email })
  await visible(row)
  return row
}

export default [
  {
    name: 'forum: admin sees the header, the members strip and list, the forms; screenshots; axe',
    async fn(ctx) {
      const { path } = await forumPath(OPEN)
      const page = await signedInPage(ctx, 'admin@demo.agora')
      await openForum(page, path, OPEN)
      const strip = page.getByTestId('members-strip')
      await visible(strip)
      assert.match(await strip.getAttribute('aria-label'), /^Members of this forum: \d+ members, .*\(Expert\)/, 'the strip puts the expert first')
      await visible(page.getByRole('button', { name: 'Manage Access' }))
      await shot(page, 'forum-wide')
      await axe(page, 'forum page')

      // The members list: experts first, with the star badge.
      await strip.click()
      const members = page.getByTestId('members-dialog')
      await visible(members.getByTestId('member-row'))
      const first = members.getByTestId('member-row').first()
      assert.match(await first.innerText(), /Expert/)
      assert.equal(await first.getByTestId('expert-star').count(), 1)
      await axe(page, 'forum members list')
      await page.keyboard.press('Escape')

      // An open forum: the notice, and no removal.
      const dialog = await manageAccess(page)
      await visible(dialog.getByText("Access Can't Be Changed"))
      await shot(page, 'forum-access-choice')
      await axe(page, 'manage access choice')
      await dialog.getByRole('button', { name: /Existing members/ }).click()
      await visible(dialog.getByTestId('existing-row'))
      assert.equal(await dialog.getByRole('option', { name: 'Remove access' }).count(), 0, 'no removal from an open forum')
      assert.equal(await dialog.getByRole('button', { name: 'Confirm' }).isDisabled(), true)
      await axe(page, 'existing members')
      await page.keyboard.press('Escape')

      // The edit form: its rules, then cancel.
      await page.getByRole('button', { name: 'Forum settings' }).click()
      await page.getByRole('menuitem', { name: 'Edit forum' }).click()
      const form = page.getByTestId('forum-form')
      await visible(form)
      assert.equal(await form.getByRole('radio', { name: /Invite only/ }).isDisabled(), true, 'open cannot be undone')
      await form.getByLabel('Name').fill('   ')
      await form.getByRole('button', { name: 'Save' }).click()
      await visible(form.getByText('Required.'))
      await axe(page, 'edit forum')
      await form.getByRole('button', { name: 'Cancel' }).click()
      await page.getByRole('button', { name: 'Forum settings' }).click()
      await page.getByRole('menuitem', { name: 'Delete forum' }).click()
      await visible(page.getByRole('alertdialog').getByText('This action cannot be undone.', { exact: false }))
      await axe(page, 'delete forum')
      await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click()
      await visible(page.getByRole('heading', { level: 1, name: OPEN }))

      // Narrow: one column, no Manage Access.
      const narrow = await signedInPage(ctx, 'admin@demo.agora', NARROW)
      await openForum(narrow, path, OPEN)
      await visible(narrow.getByTestId('members-strip'))
      assert.equal(await narrow.getByRole('button', { name: 'Manage Access' }).isVisible(), false, 'hidden on narrow screens')
      await shot(narrow, 'forum-narrow')
      await axe(narrow, 'forum page, narrow')
    },
  },
  {
    name: 'forum: admin adds a new individual, then changes their role, which stays after reload',
    async fn(ctx) {
      const { path, seriesId, token } = await forumPath(CLOSED)
      const email = `nora.${Date.now()}@example.test`
      const page = await signedInPage(ctx, 'admin@demo.agora')
      await openForum(page, path, CLOSED)

      let dialog = await manageAccess(page, /Add a new individual/)
      await dialog.getByLabel('First name').fill('Nora')
      await dialog.getByLabel('Last name').fill('Newcomer')
      await dialog.getByLabel('Email').fill(email)
      await axe(page, 'new individual form')
      await dialog.getByRole('button', { name: 'Next' }).click()
      await visible(dialog.getByRole('heading', { name: 'Is this right?' }))
      await visible(dialog.getByText(email))
      await shot(page, 'forum-access-is-this-right')
      await axe(page, 'is this right')
      await dialog.getByRole('button', { name: 'Yes' }).click()
      // The confirmation shows the notice the newcomer receives.
      await visible(dialog.getByTestId('notice-preview'))
      await visible(dialog.getByText('1 person new to the forum receives this notice.'))
      await shot(page, 'forum-access-confirm')
      await axe(page, 'access confirmation')
      await dialog.getByRole('button', { name: 'Confirm' }).click()
      await visible(page.getByTestId('toast').getByText('Access updated for 1 person.'))
      await dialog.waitFor({ state: 'detached', timeout: TIMEOUT })

      // She is a member of the forum now, invited (no account yet), and was
      // mailed. A keyword searches the member index, which the change
      // stream fills: it may be a moment behind (more so while agora dev
      // indexes its demo discussions at start).
      const members = await poll('the new member in the member index', async () => {
        const r = await api('GET', `/api/series/${seriesId}/assignables?isAssigned=true&keyword=${encodeURIComponent(email)}`, { token })
        return r.body.results?.length ? r : null
      }, 30_000)
      assert.equal(members.body.results.length, 1)
      assert.equal(members.body.results[0].role, 'member')
      const mail = await api('GET', `/api/dev/mailbox?to=${encodeURIComponent(email)}`)
      assert.ok(mail.body.results.length >= 1, 'the invitation was mailed')

      // Change her role among the existing members.
      dialog = await manageAccess(page, /Existing members/)
      let row = await findExisting(dialog, email)
      const confirm = dialog.getByRole('button', { name: 'Confirm' })
      assert.equal(await confirm.isDisabled(), true, 'Confirm waits for a change')
      await row.getByRole('combobox').selectOption('member-expert')
      assert.equal(await confirm.isDisabled(), false)
      await shot(page, 'forum-access-existing')
      await confirm.click()
      await visible(dialog.getByText('1 person gets a role.'))
      await dialog.getByRole('button', { name: 'Confirm' }).click()
      await visible(page.getByTestId('toast').getByText('Access updated for 1 person.'))
      await dialog.waitFor({ state: 'detached', timeout: TIMEOUT })

      await page.reload()
      await visible(page.getByRole('heading', { level: 1, name: CLOSED }))
      dialog = await manageAccess(page, /Existing members/)
      row = await findExisting(dialog, email)
      assert.equal(await row.getByRole('combobox').inputValue(), 'member-expert')
      // The admin's own row cannot be changed.
      const own = await findExisting(dialog, 'admin@demo.agora')
      assert.match(await own.getByTestId('own-row').innerText(), /You/)
      assert.equal(await own.getByRole('combobox').count(), 0)
      await page.keyboard.press('Escape')
    },
  },
  {
    name: 'forum: a member sees the forum without Manage Access',
    async fn(ctx) {
      const { path } = await forumPath(OPEN)
      const page = await signedInPage(ctx, 'member@demo.agora')
      await openForum(page, path, OPEN)
      await visible(page.getByTestId('members-strip'))
      assert.equal(await page.getByRole('button', { name: 'Manage Access' }).count(), 0)
      assert.equal(await page.getByRole('button', { name: 'Forum settings' }).count(), 0)
      assert.equal(await page.getByTestId('subscribe-prompt').count(), 0, 'a subscribed member is not asked to join')
      await axe(page, 'forum page, member')

      // The single-post view: the same page, with the tagline.
      await page.goto(`${server.url}${path}/posts/00000000-0000-7000-8000-000000000001?reason=mention`)
      await visible(page.getByTestId('post-tagline').getByText(/^in Roadmaps & Prioritization in \S/))
      await visible(page.getByRole('link', { name: 'Back to the forum' }))
    },
  },
  {
    name: 'forum: an outsider and a non-member are sent home with the message',
    async fn(ctx) {
      for (const [email, forum] of [
        ['outsider@demo.agora', OPEN],
        ['member@demo.agora', CLOSED],
      ]) {
        const { path } = await forumPath(forum)
        const page = await signedInPage(ctx, email)
        await page.goto(server.url + path)
        await waitPath(page, '/home')
        await visible(page.getByTestId('toast').getByText('This forum does not exist, or you do not have access to it.'))
        await page.close()
      }
    },
  },  {
    name: 'forum: an admin deletes a forum, and a member who has it open is sent home at once',
    async fn(ctx) {
      // A new open forum of the demo community: the member is in it.
      const { communityId, token } = await forumPath(OPEN)
      const name = `Short-lived ${Date.now()}`
      const made = await api('POST', `/api/communities/${communityId}/series`, {
        token,
        body: { name, description: 'Here for a moment.', exclusivity: 'open', shareEnabled: true, price: 0, isFree: true },
      })
      assert.equal(made.status, 201, JSON.stringify(made.body))
      const path = `/communities/${communityId}/series/${made.body.id}`
      const memberToken = await apiSignIn('member@demo.agora')
      await poll('the member is in the new forum', async () => (await api('GET', `/api/series/${made.body.id}`, { token: memberToken })).status === 200, TIMEOUT)
      const member = await openFeed(ctx, 'member@demo.agora', path)
      await visible(member.getByRole('heading', { level: 1, name }))
      await visible(member.getByRole('link', { name }).first())

      const admin = await signedInPage(ctx, 'admin@demo.agora')
      await openForum(admin, path, name)
      await admin.getByRole('button', { name: 'Forum settings' }).click()
      await admin.getByRole('menuitem', { name: 'Delete forum' }).click()
      await admin.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()

      // The member's page leaves the forum without a reload: Home, the
      // message, and no entry for the forum in the navigation.
      await waitPath(member, '/home')
      await visible(member.getByTestId('toast').getByText('This forum does not exist, or you do not have access to it.'))
      await poll('the forum leaves the member\'s navigation', async () => (await member.getByRole('link', { name }).count()) === 0, TIMEOUT)
    },
  },
  {
    name: 'forum: the admin uploads the forum’s image from its form, as a community’s; it shows, stays after a reload and an edit',
    async fn(ctx) {
      // A forum of the admin's own, so that no other test sees its image.
      const { communityId, token } = await forumPath(OPEN)
      const name = `Forum with a picture ${Date.now()}`
      const made = await api('POST', `/api/communities/${communityId}/series`, { token, body: { name, description: 'Where the e2e image lives.' } })
      assert.equal(made.status, 201, JSON.stringify(made.body))
      const path = `/communities/${communityId}/series/${made.body.id}`
      try {
        const page = await signedInPage(ctx, 'admin@demo.agora')
        await openForum(page, path, name)
        const header = page.getByTestId('forum-header')
        assert.equal(await header.locator('img').count(), 0, 'no image yet')

        await page.getByRole('button', { name: 'Forum settings' }).click()
        await page.getByRole('menuitem', { name: 'Edit forum' }).click()
        const form = page.getByTestId('forum-form')
        await visible(form)
        // The image is chosen as a file, not typed as a link.
        assert.equal(await form.getByRole('textbox', { name: /Image/ }).count(), 0, 'no image URL field')
        const chooser = page.waitForEvent('filechooser', { timeout: TIMEOUT })
        // Awaited below; a failure before that must not also reject unheard.
        chooser.catch(() => {})
        await form.locator('button').filter({ hasText: 'Choose image' }).click()
        await (await chooser).setFiles({ name: 'forum.png', mimeType: 'image/png', buffer: PNG })
        await visible(form.getByRole('img', { name: 'The chosen image' }))
        await shot(page, 'forum-form-image')
        await axe(page, 'edit forum with an image')
        await form.getByRole('button', { name: 'Save' }).click()
        await visible(page.getByTestId('toast').getByText('The forum was saved.'))

        // The header shows the picture from its lasting address.
        const picture = header.locator('img').first()
        await visible(picture)
        assert.match(await picture.getAttribute('src'), /^\/api\/pictures\/[0-9a-f-]{36}$/)
        await poll('the forum picture loads', () => picture.evaluate((img) => img.complete && img.naturalWidth === 2), TIMEOUT)
        await page.reload()
        await visible(picture)
        await poll('the forum picture loads after a reload', () => picture.evaluate((img) => img.complete && img.naturalWidth === 2), TIMEOUT)
        const src = await picture.getAttribute('src')

        // Editing the forum again saves with the picture it has.
        await page.getByRole('button', { name: 'Forum settings' }).click()
        await page.getByRole('menuitem', { name: 'Edit forum' }).click()
        await visible(form.getByRole('img', { name: 'The chosen image' }))
        await form.getByLabel('Name').fill(`${name} (renamed)`)
        await form.getByRole('button', { name: 'Save' }).click()
        await visible(page.getByRole('heading', { level: 1, name: `${name} (renamed)` }))
        assert.equal(await picture.getAttribute('src'), src, 'the picture stays')
      } finally {
        await api('DELETE', `/api/series/${made.body.id}`, { token })
      }
    },
  },
  {
    name: 'forum: on a phone, a member goes from one forum to another with the title’s forum switcher, and home from the menu',
    async fn(ctx) {
      const { path } = await forumPath(OPEN)
      const page = await signedInPage(ctx, 'member@demo.agora', NARROW)
      await openForum(page, path, OPEN)
      const bar = page.getByRole('banner')
      await bar.getByRole('button', { name: `Switch forum: ${OPEN}` }).click()
      const sheet = page.getByRole('dialog', { name: 'Your forums' })
      await visible(sheet)
      // The member's forums by community, the one shown marked.
      const nav = sheet.getByRole('navigation', { name: /^Forums of / })
      assert.deepEqual(await nav.getByRole('link').allInnerTexts(), [WELCOME, OPEN])
      assert.equal(await nav.getByRole('link', { name: OPEN }).getAttribute('aria-current'), 'page')
      await axe(page, 'forum switcher (narrow)')
      await nav.getByRole('link', { name: WELCOME }).click()
      await visible(page.getByRole('heading', { level: 1, name: WELCOME }))
      await sheet.waitFor({ state: 'detached', timeout: TIMEOUT })
      await visible(bar.getByRole('button', { name: `Switch forum: ${WELCOME}` }))
      await visible(page.getByTestId('forum-feed'))

      // Home is in the menu, with the rest the bar has no room for.
      await bar.getByRole('button', { name: 'Menu' }).click()
      const menu = page.getByRole('menu')
      await visible(menu)
      assert.deepEqual(await menu.getByRole('menuitem').allInnerTexts(), ['Home', 'Upcoming Meet Ups', 'Profile', 'Sign out'])
      await menu.getByRole('menuitem', { name: 'Home' }).click()
      await waitPath(page, '/home')
      await visible(page.getByTestId('community-card'))
    },
  },
]
