import { isGone } from '../kube/kube-api-error.js';
import type { KubeClient, QueryParams } from '../kube/kube-client.js';
import type { KubeList, KubeObject } from '../kube/kube-object.js';

export interface ListResult<T> {
  readonly items: T[];
  readonly resourceVersion: string;
  readonly pages: number;
}

/**
 * Lists a collection page by page (`limit` + `continue`), as one consistent snapshot. If the continue token
 * expires mid-way (410), it falls back to one unpaginated list, as client-go's pager does.
 */
export async function listAllPages<T extends KubeObject>(
  client: KubeClient,
  path: string,
  selectors: QueryParams,
  pageSize: number,
  signal?: AbortSignal,
): Promise<ListResult<T>> {
  const items: T[] = [];
  let continueToken: string | undefined;
  let pages = 0;
  for (;;) {
    let page: KubeList<T>;
    try {
      page = await client.get<KubeList<T>>(path, { ...selectors, limit: pageSize, continue: continueToken }, signal);
    } catch (error) {
      if (!(continueToken && isGone(error))) throw error;
      const full = await client.get<KubeList<T>>(path, selectors, signal);
      return { items: full.items, resourceVersion: full.metadata.resourceVersion ?? '', pages: pages + 1 };
    }
    pages += 1;
    items.push(...page.items);
    continueToken = page.metadata.continue || undefined;
    if (!continueToken) return { items, resourceVersion: page.metadata.resourceVersion ?? '', pages };
  }
}
