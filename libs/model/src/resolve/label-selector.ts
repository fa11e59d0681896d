export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string | undefined>>;
  readonly matchExpressions?: readonly { readonly key: string; readonly operator: string; readonly values?: readonly string[] }[];
}

/** Kubernetes label selector semantics; an unknown operator selects nothing rather than everything. */
export function selectorMatches(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[key] !== value) return false;
  }
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const present = Object.hasOwn(labels, key);
    const value = labels[key];
    const ok =
      operator === 'In'
        ? present && values.includes(value ?? '')
        : operator === 'NotIn'
          ? !present || !values.includes(value ?? '')
          : operator === 'Exists'
            ? present
            : operator === 'DoesNotExist'
              ? !present
              : false;
    if (!ok) return false;
  }
  return true;
}
