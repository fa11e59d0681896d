import { isGone } from '../kube/kube-api-error.js';
import type { KubeClient, QueryParams } from '../kube/kube-client.js';
import type { KubeList, KubeObject } from '../kube/kube-object.js';

export interface ListResult<T> {
  readonly items: T[];
  readonly resourceVersion: string;
  readonly pages: number;
}

/**
 * The API server writes a list's `metadata` (with `continue`) before its `items`, so the token can be read from the
 * head of the body and the next page requested before this one is decoded. Only a hint: the decoded metadata decides.
 */
const continueInHead = /^\{[^[]*?"metadata":\{[^{}]*?"continue":"([^"\\]+)"/;

/**
 * Lists a collection page by page (`limit` + `continue`), as one consistent snapshot; while one page is decoded the
 * next is already on its way. If the continue token expires mid-way (410), it falls back to one unpaginated list, as
 * client-go's pager does.
 */
export async function listAllPages<T extends KubeObject>(
  client: KubeClient,
  path: string,
  selectors: QueryParams,
  pageSize: number,
  signal?: AbortSignal,
): Promise<ListResult<T>> {
  const items: T[] = [];
  const fetchPage = (continueToken: string | undefined) =>
    client.getText(path, { ...selectors, limit: pageSize, continue: continueToken }, signal);
  let continueToken: string | undefined;
  let pending = fetchPage(undefined);
  let pages = 0;
  for (;;) {
    let text: string;
    try {
      text = await pending;
    } catch (error) {
      if (!(continueToken && isGone(error))) throw error;
      const full = await client.get<KubeList<T>>(path, selectors, signal);
      return { items: full.items, resourceVersion: full.metadata.resourceVersion ?? '', pages: pages + 1 };
    }
    const hinted = continueInHead.exec(text.slice(0, 4096))?.[1];
    let prefetched: Promise<string> | undefined;
    if (hinted) {
      prefetched = fetchPage(hinted);
      // Decoding may still reject this page; the prefetch's failure is then nobody's to handle.
      prefetched.catch(() => {});
    }
    const page = JSON.parse(text) as KubeList<T>;
    pages += 1;
    for (const item of page.items) items.push(item);
    continueToken = page.metadata.continue || undefined;
    if (!continueToken) return { items, resourceVersion: page.metadata.resourceVersion ?? '', pages };
    pending = prefetched && hinted === continueToken ? prefetched : fetchPage(continueToken);
  }
}
