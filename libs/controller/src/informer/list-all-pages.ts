import { isGone } from '../kube/kube-api-error.js';
import type { KubeClient, QueryParams } from '../kube/kube-client.js';
import type { KubeList, KubeObject } from '../kube/kube-object.js';
import { decodeKubeList, decodeKubeListMetadata } from '../kube/protobuf/kube-protobuf.js';
import type { ObjectEncoding } from './informer-options.js';

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

/** How one page is fetched and read, per encoding. */
interface PageCodec<B, T> {
  readonly fetch: (query: QueryParams) => Promise<B>;
  /** The next page's continue token as read from the head of the body, before the page is decoded. */
  readonly continueHint: (body: B) => string | undefined;
  readonly decode: (body: B) => { metadata: { resourceVersion?: string; continue?: string }; items: T[] };
}

/**
 * Lists a collection page by page (`limit` + `continue`), as one consistent snapshot; while one page is decoded the
 * next is already on its way. If the continue token expires mid-way (410), it falls back to one unpaginated list, as
 * client-go's pager does.
 */
export function listAllPages<T extends KubeObject>(
  client: KubeClient,
  path: string,
  selectors: QueryParams,
  pageSize: number,
  encoding: ObjectEncoding,
  signal?: AbortSignal,
): Promise<ListResult<T>> {
  if (encoding === 'protobuf') {
    return listPages<Buffer, T>(
      {
        fetch: (query) => client.getProtobuf(path, query, signal),
        continueHint: (body) => decodeKubeListMetadata(body).continue || undefined,
        decode: (body) => decodeKubeList<T>(body),
      },
      selectors,
      pageSize,
    );
  }
  return listPages<string, T>(
    {
      fetch: (query) => client.getText(path, query, signal),
      continueHint: (body) => continueInHead.exec(body.slice(0, 4096))?.[1],
      decode: (body) => JSON.parse(body) as KubeList<T>,
    },
    selectors,
    pageSize,
  );
}

async function listPages<B, T>(codec: PageCodec<B, T>, selectors: QueryParams, pageSize: number): Promise<ListResult<T>> {
  const items: T[] = [];
  const fetchPage = (continueToken: string | undefined) => codec.fetch({ ...selectors, limit: pageSize, continue: continueToken });
  let continueToken: string | undefined;
  let pending = fetchPage(undefined);
  let pages = 0;
  for (;;) {
    let body: B;
    try {
      body = await pending;
    } catch (error) {
      if (!(continueToken && isGone(error))) throw error;
      const full = codec.decode(await codec.fetch(selectors));
      return { items: full.items, resourceVersion: full.metadata.resourceVersion ?? '', pages: pages + 1 };
    }
    const hinted = codec.continueHint(body);
    let prefetched: Promise<B> | undefined;
    if (hinted) {
      prefetched = fetchPage(hinted);
      // Decoding may still reject this page; the prefetch's failure is then nobody's to handle.
      prefetched.catch(() => {});
    }
    const page = codec.decode(body);
    pages += 1;
    for (const item of page.items) items.push(item);
    continueToken = page.metadata.continue || undefined;
    if (!continueToken) return { items, resourceVersion: page.metadata.resourceVersion ?? '', pages };
    pending = prefetched && hinted === continueToken ? prefetched : fetchPage(continueToken);
  }
}
