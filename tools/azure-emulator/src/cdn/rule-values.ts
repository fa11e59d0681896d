import type { AfdLimits } from '../limits.js';

type RuleValueLimits = Pick<AfdLimits, 'conditionsPerRule' | 'actionsPerRule' | 'ruleConditionHeaderValueLength' | 'ruleActionHeaderValueLength'>;

interface Named {
  name?: unknown;
  parameters?: Record<string, unknown>;
}

const HEADER_ACTIONS = new Set(['ModifyRequestHeader', 'ModifyResponseHeader']);

/**
 * Why AFD would refuse a rule's size or values (A76): at most 10 conditions and 5 actions per rule, a RequestHeader
 * condition's match values of at most 256 characters, a header action's value of at most 640; the field named as
 * ARM names it.
 */
export function ruleValueProblem(properties: Record<string, unknown>, limits: RuleValueLimits): string | undefined {
  const conditions = (properties.conditions as Named[] | undefined) ?? [];
  const actions = (properties.actions as Named[] | undefined) ?? [];
  if (conditions.length > limits.conditionsPerRule) {
    return `'properties.conditions' has ${conditions.length} conditions; a rule can have at most ${limits.conditionsPerRule}.`;
  }
  if (actions.length > limits.actionsPerRule) {
    return `'properties.actions' has ${actions.length} actions; a rule can have at most ${limits.actionsPerRule}.`;
  }
  for (const [i, condition] of conditions.entries()) {
    if (condition.name !== 'RequestHeader') continue;
    const long = ((condition.parameters?.matchValues as unknown[] | undefined) ?? []).find(
      (v) => typeof v === 'string' && v.length > limits.ruleConditionHeaderValueLength,
    );
    if (typeof long === 'string') {
      return `'properties.conditions[${i}].parameters.matchValues' holds a value of ${long.length} characters; a request header condition value can have at most ${limits.ruleConditionHeaderValueLength}.`;
    }
  }
  for (const [i, action] of actions.entries()) {
    const value = action.parameters?.value;
    if (HEADER_ACTIONS.has(String(action.name)) && typeof value === 'string' && value.length > limits.ruleActionHeaderValueLength) {
      return `'properties.actions[${i}].parameters.value' has ${value.length} characters; a header action value can have at most ${limits.ruleActionHeaderValueLength}.`;
    }
  }
  return undefined;
}
