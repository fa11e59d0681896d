import { formatAnnotationErrors, type AnnotationResult, type GatewayConfig } from '@fleet-gateway/annotations';
import type { Gateway, GatewayClass } from '@fleet-gateway/api-types';
import { conditionsFor, joinMessages } from './conditions.js';
import type { ListenerResult } from '../resolve/listeners.js';
import type { GatewayClassVerdict, VerdictCondition } from './verdict-types.js';

export function gatewayClassVerdict(gatewayClass: GatewayClass): GatewayClassVerdict {
  const make = conditionsFor(gatewayClass.metadata.generation ?? 0);
  const ref = gatewayClass.spec.parametersRef;
  const condition = ref
    ? make.isFalse('Accepted', 'InvalidParameters', `parametersRef ${ref.group}/${ref.kind} ${ref.name} is not supported: this controller takes no parameters`)
    : make.isTrue('Accepted', 'Accepted', 'accepted by networking.fleet.azure.com/afd');
  return { name: gatewayClass.metadata.name ?? '', conditions: [condition] };
}

/** Gateway-level problems that make the whole Gateway unacceptable, first reason first. */
function gatewayProblems(gateway: Gateway, classVerdict: GatewayClassVerdict, config: AnnotationResult<GatewayConfig>) {
  const problems: { reason: string; message: string }[] = [];
  const classAccepted = classVerdict.conditions.find((c) => c.type === 'Accepted');
  if (classAccepted?.status !== 'True') {
    problems.push({ reason: 'InvalidParameters', message: `GatewayClass ${classVerdict.name} is not accepted: ${classAccepted?.message ?? ''}` });
  }
  if (!config.ok) problems.push({ reason: 'Invalid', message: formatAnnotationErrors(config.errors) });
  if ((gateway.spec.addresses ?? []).length > 0) {
    problems.push({ reason: 'UnsupportedAddress', message: 'spec.addresses is not supported: AFD assigns the endpoint hostname' });
  }
  if (gateway.spec.infrastructure) {
    problems.push({ reason: 'InvalidParameters', message: 'spec.infrastructure is not supported' });
  }
  // Accepting it would leave the Gateway open to clients without a certificate, or origins without ours.
  if (gateway.spec.tls) {
    problems.push({
      reason: 'Invalid',
      message:
        'spec.tls is not supported: AFD neither validates client certificates (frontend) nor presents a client certificate to origins (backend); remove spec.tls',
    });
  }
  return problems;
}

/** Accepted (and, when not accepted, Programmed=False) for the Gateway itself. */
export function gatewayConditions(
  gateway: Gateway,
  classVerdict: GatewayClassVerdict,
  config: AnnotationResult<GatewayConfig>,
  listeners: readonly ListenerResult[],
  extraProblem?: string,
): VerdictCondition[] {
  const make = conditionsFor(gateway.metadata.generation ?? 0);
  const problems = gatewayProblems(gateway, classVerdict, config);
  if (extraProblem) problems.push({ reason: 'Invalid', message: extraProblem });
  const invalid = listeners.filter((l) => l.problem);
  const listenerText = joinMessages(invalid.map((l) => `listener ${l.name}: ${l.problem}`));
  let accepted: VerdictCondition;
  const [first] = problems;
  if (first) {
    const listenerPart = invalid.length > 0 ? `listeners not valid: ${listenerText}` : undefined;
    accepted = make.isFalse('Accepted', first.reason, joinMessages([...problems.map((p) => p.message), listenerPart]));
  } else if (invalid.length === listeners.length) accepted = make.isFalse('Accepted', 'ListenersNotValid', `no listener is valid: ${listenerText}`);
  else if (invalid.length > 0) accepted = make.isTrue('Accepted', 'ListenersNotValid', `some listeners are not valid: ${listenerText}`);
  else accepted = make.isTrue('Accepted', 'Accepted', 'Gateway is valid');
  if (accepted.status === 'True') return [accepted];
  return [accepted, make.isFalse('Programmed', 'Invalid', `not accepted: ${accepted.message}`)];
}
