import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { PAGE_PATHS, PAGE_PATHS_FILE } from './src/page-paths';

// Built into dist/ and served by paddock-dashboard: hashed files under /assets/ are cached for good,
// index.html never. No inline script or style is emitted, as the dashboard's CSP allows none.
export default defineConfig({
  plugins: [
    react(),
    {
      // The page paths for the server, which answers index.html for them alone.
      name: 'paddock-page-paths',
      generateBundle() {
        const source = `${JSON.stringify(Object.values(PAGE_PATHS))}\n`;
        this.emitFile({ type: 'asset', fileName: PAGE_PATHS_FILE, source });
      },
    },
  ],
  // One React for the app and its libraries, whichever node_modules each was installed in.
  resolve: { dedupe: ['react', 'react-dom', 'react-router'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    modulePreload: { polyfill: false },
  },
  server: {
    // `npx vite` against a dashboard on :3000 during UI work; start that dashboard with
    // SVC_BASE_URL=http://localhost:5173, the name the browser uses, or it refuses the requests (421).
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
