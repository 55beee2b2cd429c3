import { defineConfig } from 'vitest/config'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'

const include = ['src/**/*.test.{ts,tsx}']

// The test files that replace a module (vi.mock): they need a module
// registry of their own. Every other file shares its worker's (isolate:
// false): a fresh jsdom and module graph per file cost two thirds of the
// suite's CPU (295 s against 95 s of wall time on 2 cores). What one file
// could leave behind for the next (the DOM, localStorage, stubbed globals,
// the error popup's store, the language) is reset after every test in
// src/test/setup.ts.
const src = fileURLToPath(new URL('./src/', import.meta.url))
const mocking = (readdirSync(src, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((f) => /\.test\.tsx?$/.test(f) && readFileSync(src + f, 'utf8').includes('vi.mock('))
  .map((f) => `src/${f}`)

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  plugins: [react()],
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    // make test runs these beside go test -race and the browser tests on two
    // cores: a test's own pace is not what is under test (a wait, findBy or
    // waitFor, has 60 s: src/test/setup.ts).
    testTimeout: 90000,
    projects: [
      { extends: true, test: { name: 'shared', include, exclude: mocking, isolate: false } },
      { extends: true, test: { name: 'mocking', include: mocking } },
    ],
  },
})
