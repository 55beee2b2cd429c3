import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

// Dependencies point one way (bulletproof-react): shared code (components,
// lib) ← features ← routes. A feature never imports another feature; a route
// composes them.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

const noImportsFrom = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
})

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/routeTree.gen.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // Shared code imports no feature and no route.
  {
    files: ['src/components/**', 'src/lib/**'],
    rules: noImportsFrom(
      ['@/features/*', '@/routes/*', '**/features/*', '**/routes/*'],
      'Shared code (components, lib) must not import a feature or a route.',
    ),
  },
  // A feature imports no other feature and no route.
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**`],
    rules: noImportsFrom(
      [
        '@/features/*',
        `!@/features/${feature}`,
        '@/routes/*',
        ...features.filter((other) => other !== feature).map((other) => `**/features/${other}/**`),
        ...features.filter((other) => other !== feature).map((other) => `../../${other}/**`),
      ],
      `Features are independent: compose them in a route, or move the shared part to src/lib or src/components.`,
    ),
  })),
)
