import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { tanstackRouter } from '@tanstack/router-plugin/vite'

const apiTarget = 'http://127.0.0.1:8080'

// The router plugin must come before the React plugin so that route files
// are code-split (the dashboard must not end up in the /signin bundle).
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // A route's loader is split out of the entry with its component, in
      // one chunk: the loader (and the api schema it pulls in) is downloaded
      // with that route, not with the entry chunk every screen, /signin
      // first, loads; and the chunk main.tsx fetches for the first screen
      // (router.loadRouteChunk: the components) holds the loader too. A
      // loader in a chunk of its own was fetched only when the router first
      // ran it, a round of requests after the others (issue 37 item 9).
      codeSplittingOptions: {
        defaultBehavior: [['loader', 'component'], ['pendingComponent'], ['errorComponent'], ['notFoundComponent']],
      },
    }),
    react(),
    tailwindcss(),
  ],
  server: {
    proxy: {
      '/v1': apiTarget,
      '/dev': apiTarget,
      '/sandbox': apiTarget,
      '/healthz': apiTarget,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every supported browser has <link rel=modulepreload>; skip the polyfill.
    // index.html preloads the entry's own chunks (and the api sends them as
    // its Link header). A lazy chunk's dependencies are not preloaded from
    // script: Vite's helper would add a <link> per dependency at each
    // import(), and on the team page that was 35 links in one task of about
    // 250 ms at Lighthouse's 4× slowdown, after the first paint (blocking
    // time). The browser fetches a chunk's imports itself once the chunk
    // arrives (issue 37 item 9, docs/performance.md round 5).
    modulePreload: { polyfill: false, resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Kudos serves HTTP/1.1 (fasthttp): a phone opens six connections,
          // and every file costs a round trip. Automatic splitting gave the
          // team page 75 files (an icon, a query hook, a 200-byte helper each),
          // and Lighthouse's largest paint waited for a dozen rounds of them
          // (issue 37 item 9). The groups below fold the small shared modules
          // into a few chunks, by priority (higher first): 39 files for team,
          // 16 for the dashboard, /signin's unchanged.
          groups: [
            {
              // The small modules every form screen shares (sign-in first),
              // and the router's lazyRouteComponent/useNavigate, which /signin
              // loads anyway: one chunk compresses better than a dozen tiny
              // ones. With them the icon runtime and the one icon /signin
              // draws (key-round, the passkey button), webauthn and cn. Not
              // react-hook-form: /signin does without it (its form uses
              // lib/schema-form.ts), so it is a chunk of the other forms.
              name: 'forms',
              priority: 3,
              test: /node_modules[\\/](valibot[\\/]|lucide-react[\\/]dist[\\/]esm[\\/](shared|context|Icon|createLucideIcon|icons[\\/]key-round)|@tanstack[\\/]react-router[\\/]dist[\\/]esm[\\/](lazyRouteComponent|useNavigate)\.)|src[\\/](lib[\\/](validators|form-errors|webauthn|utils)|components[\\/](form-field|form-error|brand|language-picker|public-header|ui[\\/](card|input|label|native-select|icons|button))|features[\\/]auth[\\/](api[\\/](session-schema|signin|oidc-signin|oidc-signup)|components[\\/](auth-layout|or-divider|google-button)))\./,
            },
            {
              // react-hook-form for the forms other than sign-in, under its own name.
              name: 'react-hook-form',
              priority: 3,
              test: /node_modules[\\/](react-hook-form|@hookform[\\/]resolvers)[\\/]/,
            },
            // What the entry imports stays in the entry: the two groups below
            // must not pull it out into a chunk /signin would then load.
            { name: 'entry', priority: 2.5, tags: ['$initial'] },
            {
              // The dialogs (Radix's dialog and alert dialog, what they need,
              // and ours around them) in one file: loaded as a chain of
              // small chunks they were the team page's last three rounds of
              // requests (issue 37 item 9). /signin and the dashboard load
              // none of it.
              name: 'dialogs',
              priority: 1.5,
              test: /node_modules[\\/]@radix-ui[\\/]react-(dialog|alert-dialog|dismissable-layer|focus-scope|focus-guards|portal|presence|id|use-callback-ref|use-escape-keydown|primitive|compose-refs|context|use-layout-effect|use-controllable-state|use-effect-event|slot)[\\/]|node_modules[\\/](@radix-ui[\\/]primitive|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|get-nonce|tslib)[\\/]|src[\\/]components[\\/](ui[\\/](dialog|alert-dialog)|form-dialog|confirmation-dialog|return-focus)\./,
            },
            // Every icon of the dashboard in one file (6 KB gzip).
            { name: 'icons', priority: 2, test: /node_modules[\\/]lucide-react[\\/]/ },
            // The shared helpers, api reads and query hooks of the signed-in
            // pages (16 KB gzip); schema-form is /signin's own. With them the
            // small shared pieces of the signed-in pages that import no
            // dialog (a skeleton, a table, the retry notice, the billing
            // reads and formats the timeline shares, 6 KB raw): each was a
            // file of its own, a round of requests below the page that
            // imports it, and the team's timeline waited for a fourth round
            // (download-invoice, get-billing, billing-format), billing's
            // payment details for route-tabs, skeleton and load-failed
            // (issue 37 item 9, docs/performance.md round 7).
            {
              name: 'lib',
              priority: 1,
              test: /src[\\/]lib[\\/](?!schema-form\.)|node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]|src[\\/]components[\\/](ui[\\/](skeleton|table)|load-failed|route-tabs|step-up-prompt|payment-retry-message)\.|src[\\/]features[\\/]billing[\\/](api[\\/](get-billing|download-invoice)|components[\\/]billing-format)\./,
            },
          ],
        },
      },
    },
  },
})
