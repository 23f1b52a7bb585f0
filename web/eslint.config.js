// ESLint checks one thing here: the one-way import rule between the web
// app's layers (bulletproof-react's import/no-restricted-paths zones, from
// eslint-plugin-import-x, the fork of eslint-plugin-import that runs on
// ESLint 10). Formatting and style are not linted.
//
//   src/app      composes features (shell, root, router, joined screens)
//   src/routes   may import app and features
//   src/features/<f>  imports shared code and itself, never another feature
//   shared code  (components, hooks, lib, api, i18n, test) imports no feature,
//                no app, no route
import { readdirSync } from 'node:fs'
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'

const root = import.meta.dirname

// Every folder of src/features is a feature: a new one is covered as it is made.
const features = readdirSync(`${root}/src/features`, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)

const shared = ['components', 'hooks', 'lib', 'api', 'i18n', 'test'].map((d) => `./src/${d}`)
const above = ['./src/app', './src/routes', './src/routeTree.gen.ts', './src/main.tsx']

const zones = [
  ...features.map((f) => ({
    target: `./src/features/${f}`,
    from: './src/features',
    except: [`./${f}`],
    message: 'Features do not import each other: join them in src/app (or a route), or move what both need to shared code.',
  })),
  {
    target: './src/features',
    from: above,
    message: 'Features import only shared code and themselves, not the app layer or the routes.',
  },
  {
    target: shared,
    from: ['./src/features', ...above],
    message: 'Shared code imports no feature, no app layer and no route.',
  },
  {
    target: './src/app',
    from: './src/routes',
    message: 'The app layer does not import routes (the router reads them from the generated route tree).',
  },
]

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'src/routeTree.gen.ts', 'src/api/schema.d.ts'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser },
    plugins: { 'import-x': importX },
    settings: {
      // '@/' is src/ (tsconfig paths, vite alias).
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
      // A path the resolver cannot follow would slip past the zones.
      'import-x/no-unresolved': 'error',
    },
  },
)
