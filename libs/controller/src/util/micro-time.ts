/**
 * Kubernetes MicroTime (Lease renewTime/acquireTime, Event eventTime) must carry exactly six fractional digits;
 * `Date.toISOString()` gives three and the API server rejects it.
 */
export function formatMicroTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** metav1.Time (condition lastTransitionTime) has second precision; writing milliseconds would never compare equal. */
export function formatTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
