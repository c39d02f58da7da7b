import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { marked } from 'marked';
import { defineConfig, type Plugin } from 'vite';

/**
 * `import html from './page.md?html'`: Markdown rendered to HTML at build time, so the legal
 * pages ship a string instead of a Markdown parser (keeps visitor routes inside the JS budget).
 */
function markdownHtml(): Plugin {
  return {
    name: 'flashbooth:markdown-html',
    enforce: 'pre',
    load(id) {
      if (!id.endsWith('.md?html')) return null;
      const file = id.slice(0, -'?html'.length);
      this.addWatchFile(file);
      const html = marked.parse(readFileSync(file, 'utf8'), { async: false, gfm: true });
      return `export default ${JSON.stringify(html)};`;
    },
  };
}

export default defineConfig({
  plugins: [markdownHtml(), react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: { outDir: 'dist', sourcemap: false, target: 'es2022', manifest: true },
});
