// Accounts (spec 000 §2.1, §2.4, §6): a super user manages an organization
// from Manage → Accounts: its members (one added, then sent an invitation;
// a file imported), its single sign-on client, and its resources' route.
import assert from 'node:assert/strict'
import { api, apiSignIn, axe, mailWithLink, server, signedInPage, visible, waitPath } from '../lib.mjs'

const DEMO_ORGANIZATION = '01000000-0000-7000-8000-00000000a901'

const invitations = async (email) =>
  ((await api('GET', `/api/dev/mailbox?to=${encodeURIComponent(email)}`)).body?.results ?? []).filter((m) => m.body.includes('/accept-invitation?token='))

export default [
  {
    name: 'accounts: a super user opens an organization’s members, sends a person without an account an invitation, imports a file, and sets single sign-on',
    async fn(ctx) {
      const stamp = Date.now()
      const superToken = await apiSignIn('super@demo.agora')
      const org = (await api('GET', `/api/organizations/${DEMO_ORGANIZATION}`, { token: superToken })).body
      const page = await signedInPage(ctx, 'super@demo.agora')

      // Manage → Accounts → the organization → Members.
      await page.getByTestId('manage-menu').click()
      await page.getByRole('menuitem', { name: 'Accounts' }).click()
      await waitPath(page, '/accounts')
      await page.getByRole('searchbox', { name: 'Search accounts' }).fill(org.name)
      await page.getByRole('link', { name: `Open ${org.name}` }).click()
      await waitPath(page, `/accounts/${org.id}/settings`)
      await page.getByRole('link', { name: 'Members' }).click()
      await waitPath(page, `/accounts/${org.id}/members`)

      // A new person, through the page's dialog: the dialog mails them once.
      const email = `e2e-org-${stamp}@example.test`
      await page.getByRole('button', { name: 'Add member' }).click()
      const dialog = page.getByRole('dialog', { name: 'New member' })
      await dialog.getByLabel('First name').fill('Olga')
      await dialog.getByLabel('Last name').fill('Outsider')
      await dialog.getByLabel('Email').fill(email)
      await dialog.getByRole('button', { name: 'Invite' }).click()
      await dialog.waitFor({ state: 'hidden' })
      await mailWithLink(email, '/accept-invitation')
      assert.equal((await invitations(email)).length, 1)

      // Send invitation again within the hour: the page says the first
      // mail's link still works, and no second mail is sent
      // (AGORA_INVITATION_RESEND_AFTER).
      const search = page.getByRole('searchbox', { name: 'Search members' })
      await search.fill(email)
      const row = page.getByTestId('account-members').getByRole('listitem').filter({ hasText: email })
      await visible(row.getByText('Invited'))
      await axe(page, 'account members')
      await row.getByRole('button', { name: 'Send the invitation again to Olga Outsider' }).click()
      await visible(page.getByText(`${email} was sent an invitation within the hour; its link still works, so it was not sent again.`))
      const mails = await invitations(email)
      assert.equal(mails.length, 1, `a re-sent invitation was mailed again: ${mails.length} mails`)
      assert.ok(mails[0].subject.includes(org.name) || mails[0].body.includes(org.name), `the invitation does not name ${org.name}: ${JSON.stringify(mails[0])}`)

      // Import from a file, into the organization.
      await page.getByRole('button', { name: 'Import from a file' }).click()
      const importer = page.getByRole('dialog', { name: 'Import members' })
      const csv = `firstName,lastName,email\r\nIda,Imported,e2e-org-${stamp}-1@example.test\r\nOlga,Outsider,${email}\r\n`
      await importer.getByLabel('File (.csv or .xlsx)').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
      await importer.getByRole('button', { name: 'Save' }).click()
      await visible(importer.getByText('1 member added'))
      await visible(importer.getByText('1 was already a member'))
      await importer.getByTestId('import-report').getByRole('button', { name: 'Close' }).click()
      await search.fill(`e2e-org-${stamp}-1@`)
      await visible(page.getByTestId('account-members').getByText(`e2e-org-${stamp}-1@example.test`))

      // Settings: single sign-on, with the server's field error first.
      await page.getByRole('link', { name: 'Settings' }).click()
      const sso = page.getByTestId('identity-client-form')
      try {
        await sso.getByLabel('Issuer URL').fill('ftp://idp.example.test')
        await sso.getByLabel('Client ID').fill('agora')
        await sso.getByLabel('Client secret').fill('not-used')
        await sso.getByRole('button', { name: 'Turn on single sign-on' }).click()
        await visible(sso.getByText('Must be an https URL.'))
        assert.ok(server.sso, 'agora dev did not print its SSO test provider')
        await sso.getByLabel('Issuer URL').fill(server.sso.issuer)
        await sso.getByLabel('Client ID').fill(server.sso.clientId)
        await sso.getByLabel('Client secret').fill(server.sso.clientSecret)
        await sso.getByRole('button', { name: 'Turn on single sign-on' }).click()
        await visible(page.getByTestId('sso-status').getByText(`On: members sign in through ${server.sso.issuer}.`))
        await sso.getByRole('button', { name: 'Turn off single sign-on' }).click()
        await visible(page.getByTestId('sso-status').getByText('Off: members sign in with their email and password.'))
      } finally {
        await api('DELETE', `/api/organizations/${org.id}/identity-client`, { token: superToken })
      }

      // An account's resource is one of its communities: the route opens it.
      const community = (await api('GET', `/api/communities?presetFilter=manageable&filters=organizationId:${org.id}&pageSize=1`, { token: superToken })).body.results[0]
      assert.ok(community, 'the demo organization has no community')
      await page.goto(`${server.url}/accounts/${org.id}/resources/${community.id}`)
      await waitPath(page, `/communities/${community.id}`)
      await visible(page.getByTestId('community-page').getByRole('heading', { name: community.name }))
    },
  },
]
