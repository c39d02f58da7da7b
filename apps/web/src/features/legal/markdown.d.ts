/** Markdown compiled to an HTML string at build time (see vite.config.ts). */
declare module '*.md?html' {
  const html: string;
  export default html;
}
