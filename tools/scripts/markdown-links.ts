import GithubSlugger from 'github-slugger';
import MarkdownIt, { type Token } from 'markdown-it';
import path from 'node:path';

/** A relative link of a Markdown file whose target file or heading does not exist. */
export interface BrokenLink {
  readonly file: string;
  readonly line: number;
  readonly href: string;
  readonly problem: string;
}

const markdown = new MarkdownIt({ html: true });

/** The text of an inline token as GitHub renders it for a heading's anchor (code spans keep their content). */
function inlineText(token: Token | undefined): string {
  return (token?.children ?? []).map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('');
}

/** The anchors GitHub gives a Markdown file's headings (`## Set-up` -> `set-up`, repeats get `-1`, `-2`). */
export function headingAnchors(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const tokens = markdown.parse(text, {});
  const anchors = new Set<string>();
  tokens.forEach((token, index) => {
    if (token.type === 'heading_open') anchors.add(slugger.slug(inlineText(tokens[index + 1])));
  });
  return anchors;
}

/** Every link of a Markdown text, with the line it is on (links inside code are not links). */
export function linksOf(text: string): { href: string; line: number }[] {
  const links: { href: string; line: number }[] = [];
  for (const token of markdown.parse(text, {})) {
    const line = (token.map?.[0] ?? 0) + 1;
    for (const child of token.children ?? []) {
      const href = child.type === 'link_open' ? child.attrGet('href') : undefined;
      if (typeof href === 'string' && href) links.push({ href, line });
    }
  }
  return links;
}

/** Links that leave the repository (another site, mail): not checked, the machines that run the tests have no internet. */
const isExternal = (href: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(href);

/**
 * The broken relative links of a set of Markdown files: a target path that is not in `exists`, or an anchor that no
 * heading of the target Markdown file has. `files` maps repository-relative paths to their text; `exists` says
 * whether a repository-relative path (file or folder) exists.
 */
export function brokenLinks(files: ReadonlyMap<string, string>, exists: (repoPath: string) => boolean): BrokenLink[] {
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string): Set<string> => {
    let found = anchorsOf.get(file);
    if (!found) anchorsOf.set(file, (found = headingAnchors(files.get(file) ?? '')));
    return found;
  };
  const broken: BrokenLink[] = [];
  for (const [file, text] of files) {
    for (const { href, line } of linksOf(text)) {
      if (isExternal(href)) continue;
      const [target = '', anchor] = href.split('#', 2);
      const targetFile = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(target)));
      if (targetFile.startsWith('..') || !exists(targetFile)) {
        broken.push({ file, line, href, problem: `${targetFile} is not in the repository` });
        continue;
      }
      if (anchor && targetFile.endsWith('.md') && files.has(targetFile) && !anchors(targetFile).has(decodeURIComponent(anchor))) {
        broken.push({ file, line, href, problem: `${targetFile} has no heading with the anchor #${anchor}` });
      }
    }
  }
  return broken;
}
