import { screen } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { DeleteCommunityDialog } from './delete-community-dialog'
import { CsvImportDialog } from './invite-members'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

afterEach(() => vi.unstubAllGlobals())

describe('the CSV import dialog', () => {
  it('enables Save once a file is chosen, then shows the report the import streams', async () => {
    const calls = stubFetch((method, path) => {
      if (method === 'POST' && path === '/api/communities/c1/profiles/bulk') {
        const lines = ['{"type":"progress","processed":2,"total":3}', '{"type":"report","added":2,"existing":0,"skipped":[{"row":4,"email":"x@","reason":"invalidEmail","message":"Not a valid email"}]}']
        return new Response(lines.join('\n') + '\n', { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } })
      }
      return json(404, { code: 'notFound', message: 'not found' })
    })
    await renderInApp(<CsvImportDialog community={{ id: 'c1', name: 'Leaders' }} open onOpenChange={() => {}} />)
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
    await renderInApp(<CsvImportDialog community={{ id: 'c1', name: 'Leaders' }} open onOpenChange={() => {}} />)
    await userEvent.upload(screen.getByTestId('csv-file-input'), new File(['a,b\n'], 'people.csv', { type: 'text/csv' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('The file could not be imported')).toBeInTheDocument()
    expect(screen.getByText('The file has no email column.')).toBeInTheDocument()
  }, 30_000)
})

describe('the delete community confirmation', () => {
  it('deletes nothing until the community’s name is typed', async () => {
    const calls = stubFetch(() => new Response(null, { status: 204 }))
    await renderInApp(<DeleteCommunityDialog community={{ id: 'c1', name: 'Leaders' }} open onOpenChange={() => {}} />)
    await userEvent.type(screen.getByLabelText('Type “Leaders” to confirm'), 'Leader')
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('The value does not match.')).toBeInTheDocument()
    expect(calls.filter((r) => r.method === 'DELETE')).toEqual([])
    await userEvent.type(screen.getByLabelText('Type “Leaders” to confirm'), 's')
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }))
    await vi.waitFor(() => expect(calls.filter((r) => r.method === 'DELETE').map((r) => new URL(r.url).pathname)).toEqual(['/api/communities/c1']))
  }, 30_000)
})
