import { describe, expect, it } from 'vitest';
import { resolveLimits } from '../limits.js';
import { ruleValueProblem } from './rule-values.js';

const limits = resolveLimits().afd;
const header = (value: string) => ({
  name: 'RequestHeader',
  parameters: { typeName: 'DeliveryRuleRequestHeaderConditionParameters', operator: 'Equal', selector: 'x-a', matchValues: ['ok', value] },
});
const modify = (value: string) => ({
  name: 'ModifyResponseHeader',
  parameters: { typeName: 'DeliveryRuleHeaderActionParameters', headerAction: 'Overwrite', headerName: 'x-a', value },
});

describe('rule value limits', () => {
  it('takes 10 conditions and 5 actions, and refuses one more of either', () => {
    expect(ruleValueProblem({ conditions: Array(10).fill(header('v')), actions: Array(5).fill(modify('v')) }, limits)).toBeUndefined();
    expect(ruleValueProblem({ conditions: Array(11).fill(header('v')) }, limits)).toBe(
      "'properties.conditions' has 11 conditions; a rule can have at most 10.",
    );
    expect(ruleValueProblem({ actions: Array(6).fill(modify('v')) }, limits)).toBe("'properties.actions' has 6 actions; a rule can have at most 5.");
  });

  it('limits request header condition values to 256 characters and header action values to 640', () => {
    expect(ruleValueProblem({ conditions: [header('a'.repeat(256))], actions: [modify('b'.repeat(640))] }, limits)).toBeUndefined();
    expect(ruleValueProblem({ conditions: [header('v'), header('a'.repeat(257))] }, limits)).toBe(
      "'properties.conditions[1].parameters.matchValues' holds a value of 257 characters; a request header condition value can have at most 256.",
    );
    expect(ruleValueProblem({ actions: [modify('b'.repeat(641))] }, limits)).toBe(
      "'properties.actions[0].parameters.value' has 641 characters; a header action value can have at most 640.",
    );
  });

  it('leaves the values of other conditions and actions to their own rules', () => {
    const query = {
      name: 'QueryString',
      parameters: { typeName: 'DeliveryRuleQueryStringConditionParameters', operator: 'RegEx', matchValues: ['q'.repeat(300)] },
    };
    const redirect = {
      name: 'UrlRedirect',
      parameters: { typeName: 'DeliveryRuleUrlRedirectActionParameters', redirectType: 'Found', customPath: `/${'p'.repeat(700)}` },
    };
    expect(ruleValueProblem({ conditions: [query], actions: [redirect] }, limits)).toBeUndefined();
  });
});
