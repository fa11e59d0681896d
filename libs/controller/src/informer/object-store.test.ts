import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../kube/kube-object.js';
import { labelIndex, namespaceIndex, ObjectStore } from './object-store.js';

const obj = (namespace: string, name: string, rv: string, labels: Record<string, string> = {}, refs: string[] = []) => ({
  metadata: { namespace, name, resourceVersion: rv, labels },
  spec: { refs },
});
type Obj = ReturnType<typeof obj> & KubeObject;

function store() {
  return new ObjectStore<Obj>({
    namespace: namespaceIndex,
    app: labelIndex('app'),
    refs: (o) => o.spec.refs,
  });
}

describe('ObjectStore', () => {
  it('finds objects by key, name and every index, and keeps indexes in step on update and removal', () => {
    const s = store();
    s.upsert(obj('a', 'x', '1', { app: 'web' }, ['g1', 'g2']));
    s.upsert(obj('b', 'y', '1', { app: 'web' }, ['g2']));
    expect(s.getByName('x', 'a')?.metadata.resourceVersion).toBe('1');
    expect(s.get('b/y')).toBeDefined();
    expect(s.byIndex('namespace', 'a').map((o) => o.metadata.name)).toEqual(['x']);
    expect(s.byIndex('app', 'web')).toHaveLength(2);
    expect(s.byIndex('refs', 'g2')).toHaveLength(2);

    s.upsert(obj('a', 'x', '2', { app: 'api' }, ['g3']));
    expect(s.byIndex('app', 'web').map((o) => o.metadata.name)).toEqual(['y']);
    expect(s.byIndex('refs', 'g1')).toEqual([]);
    expect(s.byIndex('refs', 'g3').map((o) => o.metadata.name)).toEqual(['x']);

    s.remove('b/y');
    expect(s.byIndex('app', 'web')).toEqual([]);
    expect(s.size).toBe(1);
  });

  it('keeps every index equal to filing the stored objects afresh, whatever upserts and removals came (values kept, moved, repeated)', () => {
    const value = fc.constantFrom('a', 'b', 'c');
    const change = fc.oneof(
      fc.record({ op: fc.constant('upsert' as const), name: fc.constantFrom('x', 'y', 'z'), app: fc.option(value), refs: fc.array(value, { maxLength: 3 }) }),
      fc.record({ op: fc.constant('remove' as const), name: fc.constantFrom('x', 'y', 'z') }),
    );
    fc.assert(
      fc.property(fc.array(change, { maxLength: 30 }), (changes) => {
        const s = store();
        changes.forEach((c, i) => {
          if (c.op === 'remove') s.remove(`ns/${c.name}`);
          else s.upsert(obj('ns', c.name, String(i), c.app === null ? {} : { app: c.app }, c.refs));
        });
        const names = (objects: Obj[]) => objects.map((o) => o.metadata.name).sort();
        for (const v of ['a', 'b', 'c']) {
          expect(names(s.byIndex('app', v))).toEqual(names(s.list().filter((o) => o.metadata.labels.app === v)));
          expect(names(s.byIndex('refs', v))).toEqual(names(s.list().filter((o) => o.spec.refs.includes(v))));
        }
        expect(names(s.byIndex('namespace', 'ns'))).toEqual(names(s.list()));
      }),
      { seed: 11, numRuns: 300 },
    );
  });

  it('freezes what it stores by default, so a reconciler cannot mutate the cache', () => {
    const s = store();
    expect(s.freezesObjects).toBe(true);
    s.upsert(obj('a', 'x', '1', { app: 'web' }));
    const cached = s.getByName('x', 'a')!;
    expect(() => {
      (cached.metadata.labels as Record<string, string>).app = 'changed';
    }).toThrow(TypeError);
  });

  it('freezes by default whatever the environment says: only its caller turns freezing off', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.resetModules();
    try {
      const { ObjectStore: Loaded } = await import('./object-store.js');
      const s = new Loaded<Obj>();
      s.upsert(obj('a', 'x', '1', { app: 'web' }));
      expect(Object.isFrozen(s.getByName('x', 'a')!.metadata.labels)).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('stores objects as given when told not to freeze', () => {
    const s = new ObjectStore<Obj>({ app: labelIndex('app') }, { freeze: false });
    expect(s.freezesObjects).toBe(false);
    const given = obj('a', 'x', '1', { app: 'web' });
    s.upsert(given);
    const cached = s.getByName('x', 'a')!;
    expect(cached).toBe(given);
    (cached.metadata.labels as Record<string, string>).app = 'changed';
    expect(Object.isFrozen(cached.metadata)).toBe(false);
    expect(cached.metadata.labels.app).toBe('changed');
  });

  it('replace reports added, updated (changed resourceVersion only) and deleted objects', () => {
    const s = store();
    s.upsert(obj('a', 'same', '1'));
    s.upsert(obj('a', 'changed', '1'));
    s.upsert(obj('a', 'gone', '1'));
    const diff = s.replace([obj('a', 'same', '1'), obj('a', 'changed', '2'), obj('a', 'new', '1')]);
    expect(diff.added.map((o) => o.metadata.name)).toEqual(['new']);
    expect(diff.updated.map((u) => [u.old.metadata.resourceVersion, u.object.metadata.resourceVersion])).toEqual([['1', '2']]);
    expect(diff.deleted.map((o) => o.metadata.name)).toEqual(['gone']);
    expect(
      s
        .list()
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['changed', 'new', 'same']);
  });

  it('names the index that does not exist', () => {
    expect(() => store().byIndex('owner', 'x')).toThrow('no index named owner; this store has namespace, app, refs');
  });

  it('adds an index later: objects already stored are filed at once, later changes too, and a taken name is refused', () => {
    const s = store();
    s.upsert(obj('a', 'x', '1', {}, ['r1']));
    s.addIndex('tier', (o) => (o.metadata.labels.tier ? [o.metadata.labels.tier] : o.spec.refs));
    expect(s.byIndex('tier', 'r1').map((o) => o.metadata.name)).toEqual(['x']);
    s.upsert(obj('a', 'x', '2', { tier: 'web' }));
    s.upsert(obj('a', 'y', '1', { tier: 'web' }));
    expect(s.byIndex('tier', 'r1')).toEqual([]);
    expect(
      s
        .byIndex('tier', 'web')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['x', 'y']);
    s.remove('a/y');
    expect(s.byIndex('tier', 'web').map((o) => o.metadata.name)).toEqual(['x']);
    expect(() => s.addIndex('app', () => [])).toThrow('an index named app exists already; expected a new name');
  });
});
