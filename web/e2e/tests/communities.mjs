// Communities admin (spec 000 §2.4, §2.7): an organization admin makes a
// community and fills it, and an invited person lands in it.
import assert from 'node:assert/strict'
import { api, apiSignIn, axe, mailLink, mailWithLink, poll, server, shot, signedInPage, visible, waitPath } from '../lib.mjs'

const DEMO_ORGANIZATION = '01000000-0000-7000-8000-00000000a901'

// A 2×2 PNG: a real picture, which the upload checks by its bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64')

// members is a CSV file of n people, with a BOM and CRLF as a spreadsheet
// writes them, and one bad row the report names.
function members(prefix, n) {
  const rows = ['\uFEFFfirstName,lastName,email,role,tags']
  for (let i = 0; i < n; i++) rows.push(`Person${i},"Imported, Jr.",${prefix}-${i}@example.test,member,"csv, e2e"`)
  rows.push('Bad,Address,not-an-email,member,')
  return Buffer.from(rows.join('\r\n') + '\r\n')
}

// people is a CSV file of n people whose addresses start with prefix.
function people(prefix, n) {
  const rows = ['firstName,lastName,email']
  for (let i = 0; i < n; i++) rows.push(`Invitee${i},Imported,${prefix}-${i}@example.test`)
  return Buffer.from(rows.join('\r\n') + '\r\n')
}

/** invitationsTo are the invitation mails the dev mailbox holds for email. */
const invitationsTo = async (email) =>
  ((await api('GET', `/api/dev/mailbox?to=${encodeURIComponent(email)}`)).body?.results ?? []).filter((m) => m.body.includes('/accept-invitation?token='))

export default [
  {
    name: 'communities: an organization admin creates a community with an image, a forum, imports members, shares it, and an invited person lands in it',
    async fn(ctx) {
      const stamp = Date.now()
      const name = `E2E Circle ${stamp}`
      const page = await signedInPage(ctx, 'admin@demo.agora')

      // Manage → Communities → Add community.
      await page.getByTestId('manage-menu').click()
      await page.getByRole('menuitem', { name: 'Communities' }).click()
      const manage = page.getByRole('dialog', { name: 'Manage communities' })
      await visible(manage)
      await manage.getByRole('button', { name: 'Add community' }).click()
      const chooser = page.getByRole('dialog', { name: 'Select organisation' })
      const form = page.getByRole('dialog', { name: 'Create community' })
      await visible(chooser.or(form))
      if (await chooser.isVisible()) {
        await chooser.getByRole('radio').first().click()
        await chooser.getByRole('button', { name: 'Select' }).click()
      }
      await visible(form)
      await form.getByLabel('Name').fill(name)
      await form.getByLabel('Description').fill('Where the e2e cohort meets.')
      // A new community is free; this one is paid, at the default price.
      await form.getByRole('switch', { name: 'Free community' }).click()
      assert.equal(await form.getByLabel('Price (USD)').inputValue(), '39.95')
      await form.locator('input[type="file"]').setInputFiles({ name: 'circle.png', mimeType: 'image/png', buffer: PNG })
      await visible(form.getByRole('img', { name: 'The chosen image' }))
      await axe(page, 'create community')
      await form.getByRole('button', { name: 'Create' }).click()

      // The new community's page, with its picture.
      await page.waitForURL((u) => /^\/communities\/[0-9a-f-]{36}$/.test(u.pathname))
      const communityId = new URL(page.url()).pathname.split('/')[2]
      const header = page.getByTestId('community-page')
      await visible(header.getByRole('heading', { name }))
      const cover = header.locator('img').first()
      await visible(cover)
      assert.ok(await cover.evaluate((img) => img.complete && img.naturalWidth === 2), 'the community picture did not load')
      // A community page has the footer, not the side panel; the chat is the top bar's.
      await visible(page.getByTestId('footer').getByRole('link', { name: 'Terms of Service' }))
      assert.equal(await page.getByTestId('right-panel').count(), 0, 'a side panel on the community page')
      await visible(page.getByRole('button', { name: 'Chat', exact: true }))
      await axe(page, 'community page')

      // Create forum: it appears in the community's forums.
      await header.getByRole('button', { name: 'Create forum' }).click()
      const forumForm = page.getByRole('dialog', { name: 'Create forum' })
      await forumForm.getByLabel('Name').fill(`Cohort ${stamp}`)
      await forumForm.getByLabel('Description').fill('The cohort’s questions and answers.')
      await forumForm.getByRole('button', { name: 'Create', exact: true }).click()
      await visible(page.getByTestId('community-forum').getByText(`Cohort ${stamp}`))

      // Invite → Import from a file: progress, then the report.
      await page.getByTestId('community-admin-menu').click()
      await page.getByRole('menuitem', { name: 'Invite' }).click()
      await page.getByRole('button', { name: 'Import from a file' }).click()
      const importer = page.getByRole('dialog', { name: 'Import members' })
      const rows = 9_999 // with the bad row, the most a file may hold
      await importer.getByLabel('File (.csv or .xlsx)').setInputFiles({ name: 'cohort.csv', mimeType: 'text/csv', buffer: members(`e2e-${stamp}`, rows) })
      await importer.getByRole('button', { name: 'Save' }).click()
      await visible(importer.getByRole('progressbar', { name: 'Import progress' }))
      await visible(importer.getByText('Import finished'))
      await visible(importer.getByText(`${rows} members added`))
      await visible(importer.getByText('1 row skipped'))
      await visible(importer.getByRole('list', { name: 'Skipped rows' }).getByText(/not-an-email/))
      await shot(page, 'community-import-report')
      await importer.getByTestId('import-report').getByRole('button', { name: 'Close' }).click()

      // Share: the demo member and one of the people just imported (pending,
      // without an account) get access as Member, confirmed with the count.
      const imported = `e2e-${stamp}-0@example.test`
      const before = await api('GET', `/api/dev/mailbox?to=${encodeURIComponent(imported)}`)
      assert.equal(before.body.results.length, 0, 'the import itself mailed an invitation')
      await header.getByRole('button', { name: 'Share' }).click()
      const share = page.getByTestId('share-dialog')
      const search = share.getByRole('searchbox', { name: 'Search people' })
      for (const [i, who] of ['member@demo.agora', imported].entries()) {
        await search.fill(who)
        const row = share.getByTestId('assignable-row').filter({ hasText: who })
        await visible(row)
        if (i === 0) await axe(page, 'share community')
        await row.getByRole('button').last().click()
        await page.getByRole('menuitem', { name: 'Member', exact: true }).click()
      }
      await share.getByTestId('share-save').click()
      const confirm = page.getByTestId('share-confirm')
      await visible(confirm.getByText('Access changes for 2 people.'))
      await confirm.getByRole('button', { name: 'Update' }).click()
      await confirm.waitFor({ state: 'hidden' })
      // The imported person is mailed an invitation naming the community.
      const { mail } = await mailWithLink(imported, '/accept-invitation')
      assert.ok(mail.subject.includes(name) || mail.body.includes(name), `the invitation does not name the community: ${JSON.stringify(mail)}`)
      const memberToken = await apiSignIn('member@demo.agora')
      const seen = await api('GET', `/api/communities/${communityId}`, { token: memberToken })
      assert.equal(seen.status, 200, `the shared member cannot open the community: ${JSON.stringify(seen.body)}`)
      await page.keyboard.press('Escape')

      // Invite one person: they get a mail, register, and land in the community.
      await page.getByTestId('community-admin-menu').click()
      await page.getByRole('menuitem', { name: 'Invite' }).click()
      await page.getByRole('button', { name: 'Invite one person' }).click()
      const newMember = page.getByRole('dialog', { name: 'New member' })
      const email = `e2e-new-${stamp}@example.test`
      await newMember.getByLabel('First name').fill('Nina')
      await newMember.getByLabel('Last name').fill('Newcomer')
      await newMember.getByLabel('Email').fill(email)
      await newMember.getByRole('button', { name: 'Invite' }).click()
      await visible(page.getByText(`An invitation was sent to ${email}.`))

      const link = await mailLink(email, '/accept-invitation')
      const guest = await ctx.newPage()
      await guest.goto(server.url + link)
      await visible(guest.getByText(`You were invited to join ${name} on Agora.`))
      await guest.getByLabel('Password', { exact: true }).fill('nina-Newcomer-1')
      await guest.getByLabel('Confirm password').fill('nina-Newcomer-1')
      await guest.getByRole('button', { name: 'Create account' }).click()
      await waitPath(guest, `/communities/${communityId}`)
      // The community is paid (made so, at the default price, 39.95) and a member
      // invited now is not complimentary: its page asks them to join it.
      await visible(guest.locator('h1', { hasText: name }))
      const join = guest.getByRole('dialog', { name: 'Join the Community' })
      await visible(join)
      assert.match((await join.getByTestId('subscribe-items').innerText()).replace(/\s+/g, ' '), new RegExp(`${name} \\$39\\.95 a month`))
      await axe(guest, 'join the community')
    },
  },
  {
    name: 'communities: a finished CSV import of 18 people says none was invited and invites them all with one action; people not invited are labelled so',
    async fn(ctx) {
      const stamp = Date.now()
      const page = await signedInPage(ctx, 'admin@demo.agora')
      await page.goto(`${server.url}/accounts/${DEMO_ORGANIZATION}/members`)
      const importFile = async (prefix, n) => {
        await page.getByRole('button', { name: 'Import from a file' }).click()
        const importer = page.getByRole('dialog', { name: 'Import members' })
        await importer.getByLabel('File (.csv or .xlsx)').setInputFiles({ name: 'cohort.csv', mimeType: 'text/csv', buffer: people(prefix, n) })
        await importer.getByRole('button', { name: 'Save' }).click()
        await visible(importer.getByText(`${n} members added`))
        return importer
      }
      const rows = (prefix) => page.getByTestId('account-members').getByRole('listitem').filter({ hasText: `${prefix}-` })
      const search = page.getByRole('searchbox', { name: 'Search members' })

      // 18 people: the report says nobody was mailed, and one action invites them all.
      const invited = `e2e-inv-${stamp}`
      let importer = await importFile(invited, 18)
      await visible(importer.getByText('Not invited yet: the 18 people added who have no account were not sent an invitation.'))
      assert.equal((await invitationsTo(`${invited}-0@example.test`)).length, 0, 'the import itself mailed an invitation')
      await axe(page, 'import report offering invitations')
      await importer.getByRole('button', { name: 'Send 18 invitations' }).click()
      await visible(importer.getByText('18 invitations sent.'))
      assert.equal(await importer.getByRole('button', { name: /^Send \d+ invitations?$/ }).count(), 0, 'the offer stays after the invitations')
      await shot(page, 'import-invitations-sent')
      for (let i = 0; i < 18; i++) {
        const mails = await poll(`the invitation of ${invited}-${i}`, async () => {
          const m = await invitationsTo(`${invited}-${i}@example.test`)
          return m.length > 0 && m
        }, 10_000)
        assert.equal(mails.length, 1, `${invited}-${i} was mailed ${mails.length} invitations`)
      }
      await importer.getByTestId('import-report').getByRole('button', { name: 'Close' }).click()
      await search.fill(invited)
      await visible(rows(invited).first().getByText('Invited', { exact: true }))
      assert.equal(await rows(invited).getByText('Not invited yet').count(), 0, 'an invited person is labelled not invited')

      // Two more, not invited: the list says so, beside the button that would.
      const waiting = `e2e-wait-${stamp}`
      importer = await importFile(waiting, 2)
      await importer.getByTestId('import-report').getByRole('button', { name: 'Close' }).click()
      await search.fill(waiting)
      const row = rows(waiting).filter({ hasText: `${waiting}-0@` })
      await visible(row.getByText('Not invited yet'))
      assert.equal(await rows(waiting).getByText('Invited', { exact: true }).count(), 0, 'a person never mailed is labelled Invited')
      const send = row.getByRole('button', { name: 'Send an invitation to Invitee0 Imported' })
      await visible(send)
      assert.equal((await invitationsTo(`${waiting}-0@example.test`)).length, 0)
      await send.click()
      await visible(row.getByText('Invited', { exact: true }))
    },
  },
  {
    name: 'communities: a member opens the community\'s member list and finds someone by name with a typo',
    async fn(ctx) {
      // The community of the demo forum the demo member (Chris Morgan) is in.
      const token = await apiSignIn('expert@demo.agora')
      const { body } = await api('GET', '/api/communities', { token })
      const c = body.results.find((x) => x.series.some((s) => s.name === 'Roadmaps & Prioritization'))
      assert.ok(c, 'the demo community of Roadmaps & Prioritization')
      const page = await signedInPage(ctx, 'expert@demo.agora')
      await page.goto(server.url + `/communities/${c.id}`)
      await visible(page.getByRole('heading', { level: 1, name: c.name }))
      await page.getByRole('button', { name: 'See all members' }).click()
      const dialog = page.getByRole('dialog', { name: /Members/ })
      await visible(dialog.getByTestId('community-member-row').first())
      // The caller comes first on the first page.
      assert.match(await dialog.getByTestId('community-member-row').first().innerText(), /Priya Raman/)
      const listed = await dialog.getByTestId('community-member-row').count()
      assert.ok(listed > 3, `the list shows more than the three avatars: ${listed}`)
      await axe(page, 'community members')
      await dialog.getByRole('searchbox', { name: 'Search members' }).fill('Mogan')
      await poll('Mogan finds Chris Morgan', async () => (await dialog.getByTestId('community-member-row').allInnerTexts()).some((t) => t.includes('Chris Morgan')), 15_000)
      await visible(dialog.getByText(/members? found/))
      await dialog.getByRole('searchbox', { name: 'Search members' }).fill('Zzyzx')
      await visible(dialog.getByText('No member matches “Zzyzx”.'))
    },
  },
]
