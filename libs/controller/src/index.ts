// Kubernetes access
export { KubeClient, patchContentTypes, type KubeClientObserver, type KubeClientOptions, type PatchType, type QueryParams } from './kube/kube-client.js';
export type { RequestRetryReason } from './kube/request-retry.js';
export { tokenFileKubeConfig, type TokenFileKubeConfigOptions } from './kube/token-file-kube-config.js';
export { KubeApiError, isConflict, isGone, isKubeRequestFailure, isNotFound, isStatusCode } from './kube/kube-api-error.js';
export type { KubeList, KubeObject, KubeStatus, ObjectMeta } from './kube/kube-object.js';
export { hasFinalizer, setFinalizer } from './kube/finalizers.js';
export { applyIsNoop, type ApplyTarget, type ManagedFieldsEntry } from './status/apply-is-noop.js';
export {
  crdServesField,
  customResourceDefinitions,
  schemaDeclaresField,
  type CustomResourceDefinition,
  type SchemaNode,
} from './kube/custom-resource-definition.js';
export { apiVersionOf, collectionPath, objectPath, resourceName, type ResourceType } from './kube/resource-type.js';
export { formatTime } from './util/micro-time.js';
export { jsonEqual } from './util/deep-equal.js';

// Informers and caches
export { Informer, type InformerLifecycleEvent, type LifecycleHandler } from './informer/informer.js';
export { crdInformer } from './informer/crd-informer.js';
export type { InformerOptions, ObjectEncoding } from './informer/informer-options.js';
export { decodesProtobuf } from './kube/protobuf/kube-protobuf.js';
export { labelIndex, namespaceIndex, namespaceIndexName, ObjectStore, type IndexFunction, type StoreDiff } from './informer/object-store.js';

// Work queue and controllers
export { Controller, type ControllerOptions, type ReconcileContext, type Reconciler, type RequestMapper, type StopResult } from './queue/controller.js';
export type { ObjectEvent, ObjectEventHandler, ObjectEventSource } from './queue/object-event.js';
export { done, outcomeLabels, requeueAfter, retry, terminal, type OutcomeLabel, type ReconcileOutcome } from './queue/reconcile-outcome.js';
export { objectKey, parseRequestKey, requestFor, requestKey, type ReconcileRequest } from './queue/request-key.js';
export { defaultRetryRateLimiterOptions, RetryRateLimiter, type RetryRateLimiterOptions } from './queue/retry-rate-limiter.js';
export { WorkQueue, type WorkQueueObserver, type WorkQueueOptions } from './queue/work-queue.js';

// Leader election
export { LeaderElector, type LeaderEvent } from './leader/leader-elector.js';
export type { LeaderElectionOptions } from './leader/leader-election-options.js';
export { replicaIdentity } from './leader/replica-identity.js';

// Status
export { findCondition, isConditionTrue, stampConditions, type Condition, type ConditionStatus, type DesiredCondition } from './status/conditions.js';
export { stampStatus, type ListKeys } from './status/stamp-status.js';
export { capMessage, CONDITION_MESSAGE_LIMIT } from './status/condition-message.js';
export { exponentialDelay, withJitter, type BackoffOptions } from './util/backoff.js';
export { TokenBucket, type TokenBucketOptions } from './queue/token-bucket.js';
export { spliceOwnedEntries, type OwnedEntryRule } from './status/splice-owned-entries.js';
export { StatusWriter, type SpliceRequest, type StatusWriteResult, type StatusWriterOptions } from './status/status-writer.js';

// Events
export {
  defaultEventAggregatorOptions,
  EventAggregator,
  type EventAggregatorOptions,
  type EventInput,
  type EventObjectReference,
} from './events/event-aggregator.js';
export { EventRecorder, referenceTo, type EventRecorderOptions } from './events/event-recorder.js';

// Observability and lifecycle
export { ControllerMetrics, watchRestartReasons, type WatchRestartReason } from './observability/controller-metrics.js';
export { startHealthServer, type CheckResult, type HealthCheck, type HealthServer, type HealthServerOptions } from './observability/health-server.js';
export {
  createLogger,
  reconcileLogger,
  silentLogger,
  type Logger,
  type LoggerOptions,
  type ReconcileLog,
  type ReconcileLogContext,
} from './observability/logger.js';
export { Manager, type ManagerOptions, type ShutdownReport } from './lifecycle/manager.js';
export { MetricsAccessReview, type MetricsAccess, type MetricsAccessReviewOptions } from './metrics-access/metrics-access-review.js';
export {
  certificateDirServingCertificate,
  selfSignedServingCertificate,
  type CertificateDirOptions,
  type KeyPair,
  type ServingCertificate,
} from './metrics-access/serving-certificate.js';
export { agentManager, type AgentLeaderElection, type AgentManagerOptions, type AgentRuntime } from './lifecycle/agent-manager.js';
export type { ControllerRegistrationOptions } from './lifecycle/registration-options.js';
