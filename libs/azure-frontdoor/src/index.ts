// Pure: names, ownership, limits, the plan and the diff.
export * from './afd-limits.js';
export * from './afd-names.js';
export * from './afd-refs.js';
export * from './capacity.js';
export * from './ownership.js';
export { SINK_HOST_SUFFIX } from './sink.js';
export { allRefs, planFrontDoor } from './plan-front-door.js';
export * from './plan-types.js';
export { planProblemsByRoute, type RoutePlanProblems } from './route-plan-problems.js';
export * from './route-patterns.js';
export type * from './spec-types.js';
export { diffFrontDoor, type DiffResult, type Note } from './diff.js';
export { levelOf, orderOperations, type Operation, type OperationAction } from './operations.js';

// I/O at the edges: ARM clients (on @fleet-gateway/arm-runtime), observe, apply, reconcile, delete.
export { createFrontDoorClients, type FrontDoorClients } from './arm-clients.js';
export { observeFrontDoor, type Observed, type ObservedGraph, type ObserveOptions } from './observe.js';
export { applyOperations, type ApplyOptions, type OperationResult } from './apply.js';
export { describeFailureReport, reconcileFrontDoor, type ReconcileOptions } from './reconcile.js';
export { TerminalRefusals, type TerminalRefusalsOptions } from './terminal-refusals.js';
export { bodyReferences, operationDependencies } from './operation-dependencies.js';
export { deleteFrontDoor, type DeleteOptions, type DeleteReport } from './delete-front-door.js';
export { checkWafPolicy, type WafCheck } from './waf-policy.js';
export type * from './report-types.js';
export { dnsInstructions, isApex, validationRecordName, TOKEN_REFRESH_AHEAD_MS, type CustomDomainReport } from './domain-validation.js';
