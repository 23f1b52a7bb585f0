import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': resolve(import.meta.dirname, 'src') } },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // A timeout only catches a hung test. jsdom renders of whole screens
    // take seconds on a loaded 2-core runner, so the 5 s default failed
    // tests that were slow, not wrong.
    testTimeout: 30_000,
  },
})
