import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
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

// classicScripts builds index.html's classic scripts (src/boot/*.js: the
// theme before the first paint, the browser check before the modules) into
// hashed, immutable files under assets/ and points their tags there. They
// cannot be inline (the page's Content-Security-Policy allows no inline
// script) nor modules (modules are deferred, and old browsers cannot run
// them), and Vite bundles only modules. In `vite dev` they are served as
// they are.
const classicScripts = (): Plugin => {
  const tag = /<script src="\/(src\/boot\/[\w-]+\.js)"><\/script>/g
  const refs = new Map<string, string>()
  let emitter: { emitFile: (f: { type: 'asset'; name: string; source: string }) => string; getFileName: (ref: string) => string }
  return {
    name: 'agora-classic-scripts',
    apply: 'build',
    buildStart() {
      emitter = this
      const html = readFileSync(resolve(import.meta.dirname, 'index.html'), 'utf8')
      for (const [, file] of html.matchAll(tag)) {
        const source = readFileSync(resolve(import.meta.dirname, file!), 'utf8')
        refs.set(file!, this.emitFile({ type: 'asset', name: file!.split('/').pop()!, source }))
      }
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(tag, (_tag, file: string) => {
          const ref = refs.get(file)
          if (!ref) throw new Error(`classicScripts: ${file} was not emitted`)
          return `<script src="/${emitter.getFileName(ref)}"></script>`
        }),
    },
  }
}

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, quoteStyle: 'single' }),
    react(),
    tailwindcss(),
    keepDist(),
    classicScripts(),
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
