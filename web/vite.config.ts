/**
 * The dashboard's build (docs/architecture/dashboard.md). `base: '/app/'`: the service serves the
 * built files at /app (src/http/dashboard.ts), hashed assets under /app/assets. In development,
 * `npm run dev -w web` proxies the API to a service started with `npm start` (port 3000).
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/app/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, assetsDir: 'assets' },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
