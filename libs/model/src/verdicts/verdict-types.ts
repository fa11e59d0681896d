/** A condition as resolve computes it; `lastTransitionTime` is stamped by the status writer. */
export interface VerdictCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
  readonly observedGeneration: number;
}

export interface GatewayClassVerdict {
  readonly name: string;
  readonly conditions: readonly VerdictCondition[];
}

export interface ListenerVerdict {
  readonly name: string;
  readonly supportedKinds: readonly { readonly group: string; readonly kind: string }[];
  readonly attachedRoutes: number;
  readonly conditions: readonly VerdictCondition[];
}

export interface GatewayVerdict {
  readonly namespace: string;
  readonly name: string;
  readonly conditions: readonly VerdictCondition[];
  readonly listeners: readonly ListenerVerdict[];
  /**
   * ListenerSets admitted by allowedListeners and accepted (the spec's status.attachedListenerSets); absent when no
   * ListenerSet names the Gateway (the status writer writes 0 where the hub serves the field).
   */
  readonly attachedListenerSets?: number;
}

/**
 * A ListenerSet naming the Gateway. Like the Gateway's, its Programmed (and its listeners') appears only where
 * resolve already knows the answer; otherwise it comes from what the provider observed.
 */
export interface ListenerSetVerdict {
  readonly namespace: string;
  readonly name: string;
  readonly conditions: readonly VerdictCondition[];
  /** Empty when the Gateway does not admit it. */
  readonly listeners: readonly ListenerVerdict[];
  /** The model listener name (listenerId) of each listener, in `listeners` order: where its custom domains are found. */
  readonly modelListeners: readonly string[];
}

export interface ParentRefAsWritten {
  readonly group?: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name: string;
  readonly sectionName?: string;
  readonly port?: number;
}

export interface RouteParentVerdict {
  readonly parentRef: ParentRefAsWritten;
  readonly conditions: readonly VerdictCondition[];
}

export interface RouteVerdict {
  readonly namespace: string;
  readonly name: string;
  readonly parents: readonly RouteParentVerdict[];
}

/**
 * The conditions every object must carry after this resolve. `Programmed` on the Gateway and its listeners appears
 * only where resolve already knows the answer (invalid); otherwise it comes from what the provider observed.
 */
export interface Verdicts {
  /** Set when the Gateway is not this controller's: nothing is written and nothing is programmed. */
  readonly ignored?: string;
  readonly gatewayClass?: GatewayClassVerdict;
  readonly gateway?: GatewayVerdict;
  /** The ListenerSets naming the Gateway, in the spec's precedence order; absent when there is none. */
  readonly listenerSets?: readonly ListenerSetVerdict[];
  readonly routes: readonly RouteVerdict[];
}
