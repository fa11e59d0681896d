import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { brokenLinks, headingAnchors, linksOf } from './markdown-links.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('the Markdown link check', () => {
  it("gives headings GitHub's anchors", () => {
    const anchors = headingAnchors(
      '# Fleet Gateway\n## Set-up commands (fresh machine)\n## `libs/model`: resolve\n## Set-up commands (fresh machine)\n```\n# not a heading\n```\n',
    );
    expect([...anchors]).toEqual(['fleet-gateway', 'set-up-commands-fresh-machine', 'libsmodel-resolve', 'set-up-commands-fresh-machine-1']);
  });

  it('reads links outside code only, with their lines', () => {
    expect(linksOf('see [a](a.md)\n\n`[b](b.md)`\n\n```\n[c](c.md)\n```\n[d](d.md#x) and <https://example.com>\n')).toEqual([
      { href: 'a.md', line: 1 },
      { href: 'd.md#x', line: 8 },
      { href: 'https://example.com', line: 8 },
    ]);
  });

  it('reports a missing file, a missing anchor and a path out of the repository, and nothing else', () => {
    const files = new Map([
      [
        'README.md',
        '# Top\n[ok](docs/a.md#usage) [dir](docs) [self](#top) [gone](docs/b.md) [anchor](docs/a.md#nope) [out](../x.md) [web](https://x.test/y)\n',
      ],
      ['docs/a.md', '# A\n## Usage\n[up](../README.md#top) [bad](#a-b)\n'],
    ]);
    const exists = (p: string) => files.has(p) || p === 'docs';
    expect(brokenLinks(files, exists).map(({ file, href }) => `${file} ${href}`)).toEqual([
      'README.md docs/b.md',
      'README.md docs/a.md#nope',
      'README.md ../x.md',
      'docs/a.md #a-b',
    ]);
  });

  it("finds no broken relative link in the repository's Markdown", async () => {
    const { stdout } = await run('git', ['ls-files', '-z', '--', '*.md'], { cwd: repoRoot });
    const paths = stdout.split('\0').filter(Boolean);
    expect(paths).toContain('docs/architecture.md');
    const files = new Map(await Promise.all(paths.map(async (p) => [p, await readFile(path.join(repoRoot, p), 'utf8')] as const)));
    const broken = brokenLinks(files, (p) => existsSync(path.join(repoRoot, p)));
    expect(broken.map(({ file, line, href, problem }) => `${file}:${line} ${href}: ${problem}`)).toEqual([]);
  });
});
