import { screen } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { MemberImportDialog } from './member-import-dialog'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

afterEach(() => vi.unstubAllGlobals())

describe('the member import dialog', () => {
  it('enables Save once a file is chosen, then shows the report the import streams', async () => {
    const calls = stubFetch((method, path) => {
      if (method === 'POST' && path === '/api/communities/c1/profiles/bulk') {
        const lines = ['{"type":"progress","processed":2,"total":3}', '{"type":"report","added":2,"existing":0,"skipped":[{"row":4,"email":"x@","reason":"invalidEmail","message":"Not a valid email"}]}']
        return new Response(lines.join('\n') + '\n', { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } })
      }
      return json(404, { code: 'notFound', message: 'not found' })
    })
    await renderInApp(<MemberImportDialog target={{ communityId: 'c1' }} name="Leaders" open onOpenChange={() => {}} />)
    const save = screen.getByRole('button', { name: 'Save' })
    expect(save).toBeDisabled()
    await userEvent.upload(screen.getByTestId('csv-file-input'), new File(['firstName,lastName,email\n'], 'people.csv', { type: 'text/csv' }))
    expect(save).toBeEnabled()
    await userEvent.click(save)
    expect(await screen.findByText('2 members added')).toBeInTheDocument()
    expect(screen.getByText('1 row skipped')).toBeInTheDocument()
    expect(screen.getByText('Row 4 (x@): Not a valid email')).toBeInTheDocument()
    // The file goes as a multipart form (jsdom's File does not survive into the test's Request whole).
    const sent = calls.find((r) => r.method === 'POST')!
    expect(sent.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/)
    expect((await sent.formData()).has('file')).toBe(true)
  }, 30_000)

  it('warns when the server refuses the file', async () => {
    stubFetch(() => json(400, { code: 'validationFailed', message: 'The file has no email column.' }))
    await renderInApp(<MemberImportDialog target={{ communityId: 'c1' }} name="Leaders" open onOpenChange={() => {}} />)
    await userEvent.upload(screen.getByTestId('csv-file-input'), new File(['a,b\n'], 'people.csv', { type: 'text/csv' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('The file could not be imported')).toBeInTheDocument()
    expect(screen.getByText('The file has no email column.')).toBeInTheDocument()
  }, 30_000)

  it('imports into an organization through the organization’s endpoint, and tells the page', async () => {
    const calls = stubFetch((method, path) =>
      method === 'POST' && path === '/api/organizations/o1/profiles/bulk'
        ? new Response('{"type":"report","added":1,"existing":1,"skipped":[]}\n', { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } })
        : json(404, { code: 'notFound', message: 'not found' }),
    )
    const imported = vi.fn()
    await renderInApp(<MemberImportDialog target={{ organizationId: 'o1' }} name="Acme" open onOpenChange={() => {}} onImported={imported} />)
    expect(screen.getByText('Add the people of a CSV or Excel file to Acme.')).toBeInTheDocument()
    await userEvent.upload(screen.getByTestId('csv-file-input'), new File(['firstName,lastName,email\n'], 'people.csv', { type: 'text/csv' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('1 member added')).toBeInTheDocument()
    expect(screen.getByText('1 was already a member')).toBeInTheDocument()
    expect(imported).toHaveBeenCalledOnce()
    expect(calls.filter((r) => r.method === 'POST').map((r) => new URL(r.url).pathname)).toEqual(['/api/organizations/o1/profiles/bulk'])
  }, 30_000)

  it('says the people added were not invited, and invites them all with one action', async () => {
    const calls = stubFetch((method, path) => {
      if (method === 'POST' && path === '/api/communities/c1/profiles/bulk')
        return new Response('{"type":"report","added":3,"existing":0,"skipped":[],"toInvite":["p1","p2"]}\n', { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } })
      if (method === 'POST' && path === '/api/communities/c1/invitations') return json(200, { invited: 2, skipped: 0 })
      return json(404, { code: 'notFound', message: 'not found' })
    })
    const imported = vi.fn()
    await renderInApp(<MemberImportDialog target={{ communityId: 'c1' }} name="Leaders" open onOpenChange={() => {}} onImported={imported} />)
    await userEvent.upload(screen.getByTestId('csv-file-input'), new File(['firstName,lastName,email\n'], 'people.csv', { type: 'text/csv' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Not invited yet: the 2 people added who have no account were not sent an invitation.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Send 2 invitations' }))
    expect(await screen.findByText('2 invitations sent.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Send 2 invitations' })).not.toBeInTheDocument()
    const sent = calls.find((r) => new URL(r.url).pathname === '/api/communities/c1/invitations')!
    expect(await sent.json()).toEqual({ profileIds: ['p1', 'p2'] })
    expect(imported).toHaveBeenCalledTimes(2)
  }, 30_000)
})
