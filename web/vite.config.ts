import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { tanstackRouter } from '@tanstack/router-plugin/vite'

// keepDist empties dist/ but for the committed dist/.keep, which the Go
// package web embeds (go:embed fails on an empty folder): `go build ./...`
// keeps working even when a web build fails half-way.
const dist = resolve(import.meta.dirname, 'dist')
const keepDist = (): Plugin => ({
  name: 'agora-keep-dist',
  apply: 'build',
  buildStart() {
    mkdirSync(dist, { recursive: true })
    for (const f of readdirSync(dist)) if (f !== '.keep') rmSync(resolve(dist, f), { recursive: true, force: true })
    writeFileSync(resolve(dist, '.keep'), '')
  },
})

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, quoteStyle: 'single' }),
    react(),
    tailwindcss(),
    keepDist(),
  ],
  resolve: { alias: { '@': resolve(import.meta.dirname, 'src') } },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false, // keepDist empties it, sparing .keep
    target: 'es2020',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 600,
  },
})
