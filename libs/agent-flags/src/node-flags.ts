/** The agents, by the name of their app (apps/<agent>, dist/apps/<agent>/main.mjs). */
export type AgentName = 'hub-gateway' | 'member-discovery';

/**
 * node's own flags for every launch of an agent's bundle (`node <flags> main.mjs`): the images' ENTRYPOINT
 * (apps/<agent>/Dockerfile, checked against this by tools/charts-test), the local system, the tests that run a bundle
 * and the benchmarks.
 *
 * The member agent's young generation is capped at 1 MiB per semi-space (V8 grows it to 16 MiB here by default): its
 * garbage is short-lived (a watch event, a reconcile), and the cap took it from 152–156 MiB to 125–133 MiB resident
 * in its benchmark (target < 150 MiB) with no measurable cost in time to publish. The hub agent keeps V8's default:
 * it holds objects across many reconciles at once, and with the same cap they were promoted to the old generation,
 * which took its peak in its memory benchmark from 239–240 MiB to 321–351 MiB (target < 300 MiB) and made it slower
 * to go idle. The README's Benchmarks section has the figures.
 */
export const AGENT_NODE_FLAGS: Readonly<Record<AgentName, readonly string[]>> = {
  'hub-gateway': [],
  'member-discovery': ['--max-semi-space-size=1'],
};
