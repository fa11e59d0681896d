/** An ARM resource id taken apart: `/subscriptions/<s>/resourceGroups/<g>/providers/<p>/<type>/<name>/<type>/<name>…`. */
export interface ArmId {
  readonly subscriptionId?: string;
  readonly resourceGroup?: string;
  readonly provider?: string;
  /** The resource types below the provider, outermost first (`profiles`, `originGroups`, …), as the id spells them. */
  readonly types: readonly string[];
  /** The names that go with `types`, one each (the last type of a collection path has none). */
  readonly names: readonly string[];
  /** The last segment: the resource's own name (ids compare case-insensitively, so callers lower-case to compare). */
  readonly name?: string;
}

/** The repository's one reader of ARM ids. Segment keywords (`subscriptions`, `resourceGroups`, `providers`) match in any case, as ARM's do. */
export function parseArmId(id: string): ArmId {
  const segments = id.split('/').filter((segment) => segment.length > 0);
  const at = (keyword: string): number => segments.findIndex((segment) => segment.toLowerCase() === keyword);
  const subscription = at('subscriptions');
  const group = at('resourcegroups');
  const providers = at('providers');
  const typed = providers >= 0 ? segments.slice(providers + 2) : [];
  return {
    ...(subscription >= 0 && segments[subscription + 1] ? { subscriptionId: segments[subscription + 1] } : {}),
    ...(group >= 0 && segments[group + 1] ? { resourceGroup: segments[group + 1] } : {}),
    ...(providers >= 0 && segments[providers + 1] ? { provider: segments[providers + 1] } : {}),
    types: typed.filter((_, index) => index % 2 === 0),
    names: typed.filter((_, index) => index % 2 === 1),
    ...(segments.length > 0 ? { name: segments[segments.length - 1] } : {}),
  };
}
