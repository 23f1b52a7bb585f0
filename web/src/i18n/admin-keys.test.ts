import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import i18n from '.'

// The admin screens' strings (communities, accounts, the member dialog, the
// image picker): every literal key they name exists, so no screen shows a
// raw key. Plural keys exist in their _one/_other forms.
const root = join(import.meta.dirname, '..')
const dirs = ['features/communities/components', 'features/organizations/components', 'components', 'app/shell']

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.tsx') && !p.endsWith('.test.tsx') ? [p] : []
  })
}

const keys = [
  ...new Set(
    dirs.flatMap((d) => files(join(root, d))).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/\bt\('((?:communities|accounts|memberForm|imagePicker|nav|global:)[\w.:]+)'/g)].map((m) => m[1]!)),
  ),
]

describe('the admin screens’ strings', () => {
  it('finds the keys', () => expect(keys.length).toBeGreaterThan(100))
  it.each(keys)('has %s', (key) => {
    expect(i18n.exists(key) || i18n.exists(`${key}_other`)).toBe(true)
  })
})
