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
      // Loaders get chunks of their own too, so a route's loader (and the
      // api schema it pulls in) is downloaded with that route, not with the
      // entry chunk every screen, /signin first, loads.
      codeSplittingOptions: {
        defaultBehavior: [['loader'], ['component'], ['pendingComponent'], ['errorComponent'], ['notFoundComponent']],
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
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // The small modules every form screen shares (sign-in first),
              // and the router's lazyRouteComponent/useNavigate, which /signin
              // loads anyway: one chunk compresses better than a dozen tiny
              // ones. Not react-hook-form: /signin does without it (its form
              // uses lib/schema-form.ts), so it is a chunk of the other forms.
              name: 'forms',
              test: /node_modules[\\/](valibot[\\/]|@tanstack[\\/]react-router[\\/]dist[\\/]esm[\\/](lazyRouteComponent|useNavigate)\.)|src[\\/](lib[\\/](validators|form-errors)|components[\\/](form-field|form-error|brand|language-picker|public-header|ui[\\/](card|input|label|native-select|icons|button))|features[\\/]auth[\\/](api[\\/](session-schema|signin|oidc-signin|oidc-signup)|components[\\/](auth-layout|or-divider|google-button)))\./,
            },
            {
              // react-hook-form for the forms other than sign-in, under its own name.
              name: 'react-hook-form',
              test: /node_modules[\\/](react-hook-form|@hookform[\\/]resolvers)[\\/]/,
            },
          ],
        },
      },
    },
  },
})
