// check-api fails when src/api/schema.d.ts is not what `npm run gen:api`
// makes from the OpenAPI document, so a contract change cannot be forgotten.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const web = join(dirname(fileURLToPath(import.meta.url)), '..')
const dir = mkdtempSync(join(tmpdir(), 'agora-api-'))
try {
  const out = join(dir, 'schema.d.ts')
  execFileSync(join(web, 'node_modules/.bin/openapi-typescript'), ['../httpapi/openapi/openapi.yaml', '-o', out], {
    cwd: web,
    stdio: 'pipe',
  })
  if (readFileSync(out, 'utf8') !== readFileSync(join(web, 'src/api/schema.d.ts'), 'utf8')) {
    console.error('web/src/api/schema.d.ts is stale: run `npm --prefix web run gen:api` and commit it')
    process.exit(1)
  }
  console.log('api types: up to date with httpapi/openapi/openapi.yaml')
} finally {
  rmSync(dir, { recursive: true, force: true })
}
