// What other projects use of the repository's scripts: the agents' bundler and the API types' renderer.
export { bundleAgent, bundleEntry } from './bundle-agent.js';
export { renderApiTypes } from './render-api-types.js';
