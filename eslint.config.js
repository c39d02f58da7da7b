import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

const web = 'apps/web/src';
/** Every web feature gets its own zone, so a new feature is covered without editing this file. */
const webFeatures = readdirSync(`${import.meta.dirname}/${web}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** What every feature and the app may use; these import neither of them (bulletproof-react). */
const webShared = ['components', 'hooks', 'lib', 'api', 'config'].map((dir) => `${web}/${dir}`);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.tools/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['apps/web/**/*.tsx', 'apps/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Runtime rules come from the zod-free subpath so zod never reaches a visitor's download.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@flashbooth/contracts',
              allowTypeImports: true,
              message:
                "Import runtime values from '@flashbooth/contracts/rules' (types are fine here).",
            },
          ],
        },
      ],
    },
  },
  {
    // Import paths are resolved as TypeScript does (tsconfig paths such as `@/`, `.js` → `.ts`),
    // so these rules see relative imports and aliases alike, not the import text.
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      // Imported TypeScript files are parsed too (by default only .js is), so cycles through them show.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: [
            'apps/*/tsconfig.json',
            'packages/*/tsconfig.json',
            'e2e/tsconfig.json',
            'scripts/tsconfig.json',
          ],
        }),
      ],
    },
    rules: {
      // Type-only imports are not followed (they vanish at run time); packages from npm are not
      // walked, which keeps the whole-repo lint within a few seconds of what it was without it.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The web's layers (docs/architecture.md, "Web"): features do not import each other (compose
    // them in src/app); nothing imports src/app; the shared folders do not import features.
    files: [`${web}/**/*.ts`, `${web}/**/*.tsx`],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            ...webFeatures.map((feature) => ({
              target: `${web}/features/${feature}`,
              from: `${web}/features`,
              except: [`./${feature}`],
              message: 'Features must not import each other; compose them in src/app.',
            })),
            {
              target: [`${web}/features`, ...webShared],
              from: `${web}/app`,
              message: 'Only src/app and the entry files beside it may import src/app.',
            },
            {
              target: webShared,
              from: `${web}/features`,
              message: 'Shared folders must not import features; move what is shared down.',
            },
          ],
        },
      ],
    },
  },
  {
    // The server runs without the booth agent (production loads none of it); the demo booths
    // are started by apps/launcher. Composition code the server needs is in print-composition.
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@flashbooth/booth-agent', '@flashbooth/booth-agent/*', '**/booth-agent/**'],
              message:
                'The server must not depend on the booth agent; use @flashbooth/print-composition.',
            },
          ],
        },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
