import type { GlobalGateway } from '../model/model-types.js';
import type { Verdicts } from '../verdicts/verdict-types.js';

export interface ResolveResult {
  /** The normalized model; absent when the Gateway is not ours or not accepted (nothing to program). */
  readonly model?: GlobalGateway;
  readonly verdicts: Verdicts;
}
