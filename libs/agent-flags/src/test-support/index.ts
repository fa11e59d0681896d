export { syncUsageBlock, usageBlockOf, withUsageBlock } from './readme-blocks.js';
