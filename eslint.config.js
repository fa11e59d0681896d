import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettierRecommended from 'eslint-plugin-prettier/recommended';
import tseslint from 'typescript-eslint';

/**
 * Which projects a project's product code may import, by the tags in its project.json. Scope: an agent's code reaches
 * its own side and the shared libs, never the other agent's. Type: pure code (resolve, model, contracts, types) imports
 * pure code only; I/O code imports I/O and pure code; nothing imports an app.
 */
const PRODUCT_CONSTRAINTS = [
  { sourceTag: 'scope:hub', onlyDependOnLibsWithTags: ['scope:hub', 'scope:shared'] },
  { sourceTag: 'scope:member', onlyDependOnLibsWithTags: ['scope:member', 'scope:shared'] },
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:test-bed', onlyDependOnLibsWithTags: ['scope:hub', 'scope:member', 'scope:shared', 'scope:test-bed'] },
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:io', 'type:pure'] },
  { sourceTag: 'type:io', onlyDependOnLibsWithTags: ['type:io', 'type:pure'] },
  { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['type:pure'] },
  { sourceTag: 'type:test-support', onlyDependOnLibsWithTags: ['type:io', 'type:pure', 'type:test-support'] },
];

/**
 * Tests, their support code and benchmarks assemble a piece of the fleet around what they test (a member's tests run
 * the hub's Fleet controllers and the emulator), so they may import any lib and the test beds; still never an app.
 */
const TEST_CONSTRAINTS = [{ sourceTag: '*', onlyDependOnLibsWithTags: ['type:io', 'type:pure', 'type:test-support'] }];
const TEST_FILES = ['**/*.test.ts', '**/test-support/**', '**/testing/**', '**/bench/**', '**/vitest.config.ts'];

const boundaries = (depConstraints) => ['error', { enforceBuildableLibDependency: false, allow: [], depConstraints }];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.cache/**', '**/*.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      '@nx/enforce-module-boundaries': boundaries(PRODUCT_CONSTRAINTS),
    },
  },
  { files: TEST_FILES, rules: { '@nx/enforce-module-boundaries': boundaries(TEST_CONSTRAINTS) } },
  // Formatting is Prettier's (.prettierrc.json): a file it would change fails lint; `pnpm exec prettier --write .` fixes it.
  prettierRecommended,
);
