/** One resource of the emulator's state dump (`emulator.admin.dumpResources().resources`). */
interface DumpedResource {
  readonly type: string;
  readonly id: string;
  readonly body: unknown;
}

/** An origin the emulator holds: the names of its group and of itself, from its id, and its properties as stored. */
export interface HeldOrigin {
  readonly group: string;
  readonly name: string;
  readonly properties: Record<string, unknown>;
}

/**
 * Test support: the origins in an emulator state dump of the origin group named `group` (ignoring case, as ARM
 * compares names), of the groups whose name a pattern matches, or of every group when omitted; in the dump's order.
 */
export function originsOf(resources: readonly DumpedResource[], group?: string | RegExp): HeldOrigin[] {
  const wanted = (name: string) => group === undefined || (typeof group === 'string' ? name.toLowerCase() === group.toLowerCase() : group.test(name));
  return resources.flatMap((resource) => {
    if (resource.type !== 'microsoft.cdn/profiles/origingroups/origins') return [];
    const [groupName = '', , name = ''] = resource.id.split('/').slice(-3);
    if (!wanted(groupName)) return [];
    return [{ group: groupName, name, properties: (resource.body as { properties: Record<string, unknown> }).properties }];
  });
}
