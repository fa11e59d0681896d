import { parseArmId } from '@fleet-gateway/arm-runtime';
import { refKey, type AfdKind, type AfdRef } from '../plan/afd-refs.js';
import { levelOf, type Operation } from '../diff/operations.js';

/** ARM collection segments of the ids a body names, and the kind each names. */
const COLLECTION_KINDS: Readonly<Record<string, 'originGroup' | 'customDomain' | 'ruleSet' | 'endpoint'>> = {
  origingroups: 'originGroup',
  customdomains: 'customDomain',
  rulesets: 'ruleSet',
  afdendpoints: 'endpoint',
};

/** `refKey` of the resource an ARM id of this profile's children names (origin groups, custom domains, rule sets, endpoints). */
function keyOfId(id: string | undefined): string | undefined {
  if (!id) return undefined;
  const { types, names } = parseArmId(id);
  const kind = COLLECTION_KINDS[types[types.length - 1]?.toLowerCase() ?? ''];
  const name = names[types.length - 1];
  return kind && name ? refKey({ kind, profile: '', [kind]: name } as AfdRef) : undefined;
}

type Referencing = {
  originGroup?: { id?: string };
  customDomains?: { id?: string }[];
  ruleSets?: { id?: string }[];
  actions?: { name?: string; parameters?: { originGroupOverride?: { originGroup?: { id?: string } } } }[];
  parameters?: { associations?: { domains?: { id?: string }[] }[] };
};

/**
 * The resources an ARM body names, as `refKey`s: a route's origin group, custom domains and rule sets; a rule's
 * route-configuration override's origin group; a security policy's domains (custom domains and endpoints).
 */
export function bodyReferences(kind: AfdKind, body: object | undefined): string[] {
  const b = (body ?? {}) as Referencing;
  const ids =
    kind === 'route'
      ? [b.originGroup?.id, ...(b.customDomains ?? []).map((d) => d.id), ...(b.ruleSets ?? []).map((s) => s.id)]
      : kind === 'rule'
        ? (b.actions ?? []).map((a) => a.parameters?.originGroupOverride?.originGroup?.id)
        : kind === 'securityPolicy'
          ? (b.parameters?.associations ?? []).flatMap((a) => (a.domains ?? []).map((d) => d.id))
          : [];
  return [...new Set(ids.map(keyOfId).filter((k): k is string => k !== undefined))];
}

/** The kinds whose bodies may name a resource of this kind (and so must let go of it before it is deleted). */
const REFERRER_KINDS: Partial<Readonly<Record<AfdKind, readonly AfdKind[]>>> = {
  originGroup: ['route', 'rule'],
  origin: ['route', 'rule'],
  customDomain: ['route', 'securityPolicy'],
  ruleSet: ['route'],
  endpoint: ['securityPolicy'],
};

function parentKey(ref: AfdRef): string | undefined {
  if (ref.kind === 'origin') return refKey({ kind: 'originGroup', profile: ref.profile, originGroup: ref.originGroup });
  if (ref.kind === 'rule') return refKey({ kind: 'ruleSet', profile: ref.profile, ruleSet: ref.ruleSet });
  if (ref.kind === 'route') return refKey({ kind: 'endpoint', profile: ref.profile, endpoint: ref.endpoint });
  return undefined;
}

const isDisabling = (op: Operation) => op.ref.kind === 'origin' && (op.body as { enabledState?: string } | undefined)?.enabledState === 'Disabled';

/**
 * Which operations of a plan each operation needs to have succeeded first, as indexes into `operations`: an operation
 * whose needs failed (or were not attempted) is not attempted, everything else is. Only needs of a lower level (see
 * `levelOf`) count, so the needs of a plan run in order form no cycle.
 *
 * A create or update needs: the writes of its parents (profile; origin group of an origin, rule set of a rule,
 * endpoint of a route); the writes of what its body names (origin group, custom domains, rule sets), and for a named
 * origin group the writes of its origins (AFD refuses a route or override pointing at a group without an enabled
 * origin); a disabling origin write needs the enabling writes of its group (the group keeps an enabled origin); a
 * route write of a later wave needs the route writes of earlier waves on its endpoint (they free the patterns it takes;
 * which route frees which is not in the operation, so every earlier wave counts).
 *
 * A delete needs: the deletes of its children (and the profile's delete every other delete); the writes of every
 * resource that named it before (`before`: the body as observed) or, when that is not known, of every resource of a
 * kind that can name it; an origin's delete also needs the writes of its group's other origins and of whatever named
 * its group, since AFD refuses to take the last enabled origin of a group in use.
 */
export function operationDependencies(operations: readonly Operation[], before: (ref: AfdRef) => object | undefined = () => undefined): number[][] {
  const levels = operations.map(levelOf);
  const keys = operations.map((op) => refKey(op.ref));
  const byKey = new Map<string, number[]>();
  keys.forEach((key, i) => byKey.set(key, [...(byKey.get(key) ?? []), i]));
  const writesOf = (key: string | undefined) => (key === undefined ? [] : (byKey.get(key) ?? []).filter((i) => operations[i]!.action !== 'delete'));
  const originWritesOf = (groupKey: string) =>
    operations.flatMap((op, i) => (op.action !== 'delete' && op.ref.kind === 'origin' && parentKey(op.ref) === groupKey ? [i] : []));
  const referrersOf = (key: string, kind: AfdKind) =>
    operations.flatMap((op, i) => {
      // A create names nothing yet.
      if (op.action === 'create' || !(REFERRER_KINDS[kind] ?? []).includes(op.ref.kind)) return [];
      const observed = before(op.ref);
      return observed === undefined || bodyReferences(op.ref.kind, observed).includes(key) ? [i] : [];
    });

  return operations.map((op, self) => {
    const needs = new Set<number>();
    if (op.action !== 'delete') {
      if (op.ref.kind !== 'profile') for (const i of writesOf(refKey({ kind: 'profile', profile: op.ref.profile }))) needs.add(i);
      for (const i of writesOf(parentKey(op.ref))) needs.add(i);
      for (const key of bodyReferences(op.ref.kind, op.body)) {
        for (const i of writesOf(key)) needs.add(i);
        if (key.startsWith('origingroup/')) for (const i of originWritesOf(key)) needs.add(i);
      }
      if (isDisabling(op)) for (const i of originWritesOf(parentKey(op.ref)!)) if (!isDisabling(operations[i]!)) needs.add(i);
      if (op.ref.kind === 'route' && op.wave !== undefined) {
        const endpoint = parentKey(op.ref);
        operations.forEach((other, i) => {
          if (other.ref.kind === 'route' && parentKey(other.ref) === endpoint && (other.wave ?? 0) < op.wave! && levels[i] === levels[self]) needs.add(i);
        });
      }
    } else {
      const key = keys[self]!;
      operations.forEach((other, i) => {
        if (other.action !== 'delete') return;
        if (op.ref.kind === 'profile' || parentKey(other.ref) === key) needs.add(i);
      });
      for (const i of referrersOf(key, op.ref.kind)) needs.add(i);
      if (op.ref.kind === 'origin') {
        const group = parentKey(op.ref)!;
        for (const i of originWritesOf(group)) needs.add(i);
        for (const i of referrersOf(group, 'originGroup')) needs.add(i);
      }
    }
    needs.delete(self);
    return [...needs]
      .filter((i) => levels[i]! < levels[self]! || (levels[i] === levels[self] && (operations[i]!.wave ?? 0) < (op.wave ?? 0)))
      .sort((a, b) => a - b);
  });
}
