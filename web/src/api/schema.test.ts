import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

// The generated API types must match the OpenAPI document (npm run gen:api).
describe('src/api/schema.d.ts', () => {
  it('is up to date with httpapi/openapi/openapi.yaml', () => {
    expect(() => execFileSync('node', ['scripts/check-api.mjs'], { stdio: 'pipe' })).not.toThrow()
  }, 30_000)
})
