// Prints the gzip size of the JS a first visit to a route downloads: the
// entry chunk, the chunks index.html modulepreloads, the route's lazy chunk(s)
// and everything they import statically, plus the en locale chunks the route
// needs. Counted like the UI benchmark (bench/ui/ui-bench.mjs): every file
// gzipped on its own at zlib's default level, 1 KB = 1000 bytes. Exits 1 when
// the total is over the budget (KB; for /signin 150, for the dashboard 180:
// the targets of the benchmark). Usage:
//   node scripts/bundle-size.mjs [route] [namespaces] [budget]
// route: signin (default), dashboard (the signed-in landing page: the
// /dashboard/$accountId layout and its testimonials page), or chunk name
// prefixes joined by "+".
import { readFileSync, readdirSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { join } from 'node:path'

const route = process.argv[2] ?? 'signin'
const presets = {
  signin: { chunks: ['signin'], namespaces: 'common,auth,passkeys', budget: 150 },
  dashboard: { chunks: ['_accountId', 'testimonials'], namespaces: 'common,dashboard-shell', budget: 180 },
}
const preset = presets[route] ?? { chunks: route.split('+'), namespaces: 'common,auth', budget: Infinity }
const namespaces = (process.argv[3] ?? preset.namespaces).split(',')
const budget = Number(process.argv[4] ?? preset.budget)
const KB = 1000
const dist = new URL('../dist/', import.meta.url).pathname
const assets = join(dist, 'assets')
const files = readdirSync(assets).filter((f) => f.endsWith('.js'))
const html = readFileSync(join(dist, 'index.html'), 'utf8')

const seen = new Set()
function visit(file) {
  if (seen.has(file)) return
  seen.add(file)
  const code = readFileSync(join(assets, file), 'utf8')
  for (const m of code.matchAll(/(?:import|from)\s*["']\.\/([^"']+\.js)["']/g)) visit(m[1])
}
for (const m of html.matchAll(/assets\/([^"']+\.js)/g)) visit(m[1])
const routeChunks = files.filter((f) => preset.chunks.some((c) => f.startsWith(`${c}-`)))
for (const f of routeChunks) visit(f)
// Locale chunks are named after their JSON file (common-*.js, auth-*.js), one
// per language; the en one is recognised by a text of src/locales/en/<ns>.json.
function firstText(node) {
  if (typeof node === 'string') return node
  for (const value of Object.values(node)) {
    const text = firstText(value)
    if (text) return text
  }
  return null
}
for (const ns of namespaces) {
  const marker = firstText(JSON.parse(readFileSync(new URL(`../src/locales/en/${ns}.json`, import.meta.url), 'utf8')))
  const chunk = files.find(
    (f) => f.startsWith(`${ns}-`) && readFileSync(join(assets, f), 'utf8').includes(`\`${marker}\``),
  )
  if (chunk) seen.add(chunk)
  else console.warn(`no en locale chunk found for ${ns}`)
}

let raw = 0
let gz = 0
for (const f of seen) {
  const buf = readFileSync(join(assets, f))
  const size = gzipSync(buf).length
  raw += buf.length
  gz += size
  console.log(`${(size / KB).toFixed(1).padStart(7)} KB gz  ${f}`)
}
const total = `/${route}: ${seen.size} JS files, ${(raw / KB).toFixed(1)} KB raw, ${(gz / KB).toFixed(1)} KB gzip`
if (gz / KB > budget) {
  console.error(`${total}: over the budget of ${budget} KB`)
  process.exit(1)
}
console.log(Number.isFinite(budget) ? `${total} (budget ${budget} KB)` : total)
