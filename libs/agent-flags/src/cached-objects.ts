/**
 * Whether an agent's informers deep-freeze the objects they cache (libs/controller's ObjectStore): yes, except in
 * production, `NODE_ENV=production`, as the agents' images set it. Frozen, a reconciler that mutates a cached object
 * (instead of computing a new value) fails at the mutation: that protects during development and in every test run.
 * In production a bug the tests did not catch would throw in the field rather than corrupt a cache nobody reads
 * again, and the freeze costs more CPU per event than decoding does, so it is off there.
 */
export function freezesCachedObjects(environment: NodeJS.ProcessEnv): boolean {
  return environment['NODE_ENV'] !== 'production';
}
